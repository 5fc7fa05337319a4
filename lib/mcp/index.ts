/**
 * The MCP area's public surface, for other libraries: the Stockroom server (`./server`), the MCP tool
 * executor and its connections (`./client`), and the protocol both speak (`./shared`). Each of the
 * three has its own door; this one names what leaves lib/mcp. Any new export added here becomes public API.
 */
export { createStockroomServer, type StockroomServerOptions } from './server';
export { startStockroomHttpServer, type HttpServerOptions, type RunningHttpServer } from './server';
export { WebMcpEndpoint, type EndpointCaller, type WebEndpointOptions } from './server';
export { COMPLETION_LIMIT, parseResourceUri, RESOURCE_NOT_FOUND, RESOURCE_TEMPLATES, resourceUri, type ResourceKind, type ResourceSource, type RunChange } from './server';
export { parseWeaknessesParam } from './server';
export { GovernedWrites, OPEN_WRITES, refusingWrites, type WriteGate } from './server';
export { runMcpServer } from './server';
export { parseServerFlags, type ServerFlags } from './server';
export { McpToolExecutor, type McpConnection, type McpExecutorOptions } from './client';
export { memoryConnection, stdioConnection, httpConnection, stockroomStdioCommand, childEnvironment } from './client';
export { createExecutor, type CreateExecutorOptions } from './client';
export { normaliseCallToolResult } from './client';
export { RESET_TOOL_NAME, HIDDEN_META_KEY, OPERATION_KEY_META_KEY, STOCKROOM_SERVER_INFO } from './shared';
export { benchMcpMatrix, formatMcpBench, MCP_BENCH_TARGETS_MS, type McpBenchFigure } from './bench-mcp';

// Reached from other libraries.
export { isMcpApproval, type McpApprovalStore } from './server';
export type { OAuthCredentials, OAuthCredentialStore } from './client';
export { clientCredentialsProvider, oauthProviderForServer } from './client';
export { oauthSealingKey, seal, unseal } from './client';
export { dashboardUrl, loadMcpServers, type ResolvedMcpServer, resolveServer } from './client';
