/** The MCP area's public surface: the Stockroom server, its transports, and the MCP tool executor. */
export { createStockroomServer, type StockroomServerOptions } from './stockroom-server';
export { startStockroomHttpServer, type HttpServerOptions, type RunningHttpServer } from './http-server';
export { StatelessMcpEndpoint, type EndpointCaller } from './web-endpoint';
export { parseWeaknessesParam } from './weaknesses-param';
export { GovernedWrites, OPEN_WRITES, refusingWrites, type WriteGate } from './write-gate';
export { runMcpServer } from './serve';
export { parseServerFlags, type ServerFlags } from './server-options';
export { McpToolExecutor, type McpConnection, type McpExecutorOptions } from './mcp-executor';
export { memoryConnection, stdioConnection, httpConnection, stockroomStdioCommand, childEnvironment } from './connections';
export { createExecutor, type CreateExecutorOptions } from './create-executor';
export { normaliseCallToolResult } from './normalise-result';
export { RESET_TOOL_NAME, HIDDEN_META_KEY, OPERATION_KEY_META_KEY, STOCKROOM_SERVER_INFO } from './protocol';
export { benchMcpMatrix, formatMcpBench, MCP_BENCH_TARGETS_MS, type McpBenchFigure } from './bench-mcp';

// Reached from other libraries.
export { isMcpApproval, type McpApprovalStore } from './mcp-approvals';
export type { OAuthCredentials, OAuthCredentialStore } from './oauth/credentials';
export { oauthProviderForServer } from './oauth/provider-for';
export { oauthSealingKey, seal, unseal } from './oauth/sealed';
export { dashboardUrl, loadMcpServers, type ResolvedMcpServer, resolveServer } from './server-config';
