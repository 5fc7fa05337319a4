/**
 * The door of the MCP client: the tool executor that runs the loop's tools on an MCP server, its
 * connections (in-memory, stdio, HTTP), the configured servers it may connect to, and OAuth for them.
 */
export { McpToolExecutor, type McpConnection, type McpExecutorOptions } from './mcp-executor';
export { memoryConnection, stdioConnection, httpConnection, stockroomStdioCommand, childEnvironment } from './connections';
export { createExecutor, type CreateExecutorOptions } from './create-executor';
export { parseHeaders } from './command-line';
export { normaliseCallToolResult } from './normalise-result';
export { listConfiguredServerTools, REFRESH_LIMIT_MS } from './list-server-tools';
export { dashboardUrl, loadMcpServers, type McpServerSummary, type ResolvedMcpServer, resolveServer, summarise } from './server-config';
export type { OAuthCredentials, OAuthCredentialStore } from './oauth/credentials';
export { memoryCredentialStore } from './oauth/credentials';
export { clientCredentialsProvider, oauthProviderForServer } from './oauth/provider-for';
export { StoredOAuthProvider } from './oauth/stored-provider';
export { oauthSealingKey, seal, unseal } from './oauth/sealed';
