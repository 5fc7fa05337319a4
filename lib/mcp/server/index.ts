/**
 * The door of the Stockroom MCP server: the server itself, its transports (stdio, HTTP, the web
 * endpoint), and the write gate that governs its writes.
 * The client (`lib/mcp/client`) enters here to start a server in-process or over HTTP. The OAuth
 * resource-server checks (`protected-resource.ts`, `route-origin.ts`) are app code's alone (`app/api/mcp`,
 * which may import deep): kept out of this door so an executor does not load `jose`.
 */
export { createStockroomServer, type StockroomServerOptions } from './stockroom-server';
export { startStockroomHttpServer, type HttpServerOptions, type RunningHttpServer } from './http-server';
export { WebMcpEndpoint, type EndpointCaller, type WebEndpointOptions } from './web-endpoint';
export { COMPLETION_LIMIT, parseResourceUri, RESOURCE_NOT_FOUND, RESOURCE_TEMPLATES, resourceUri, type ResourceKind, type ResourceSource, type RunChange } from './resources';
export { connectGuarded } from './request-guard';
export { parseWeaknessesParam } from './weaknesses-param';
export { GovernedWrites, OPEN_WRITES, refusingWrites, type WriteGate } from './write-gate';
export { isMcpApproval, MCP_RUN_PREFIX, type McpApprovalStore } from './mcp-approvals';
export { runMcpServer } from './serve';
export { parseServerFlags, type ServerFlags } from './server-options';
export { COMPACT_MIN_INTERVAL_MS, COMPACT_QUIET_MS } from './idle-compaction';
