/**
 * The tool servers configured in config/mcp-servers.json, as the run service's `ToolServer`: the
 * dashboard names one by id (commands and URLs never come from the browser), and suites carry the
 * id in their job so each worker connects to it itself. A remote server that asks for OAuth is
 * reached with the tenant's stored token (refreshed as needed) or the file's client credentials.
 */
import { tenantOAuthProvider } from '../db/auth';
import { loadMcpServers, resolveServer } from '../mcp';
import type { ToolServer } from './agent';

/** The configured server `id` (null when the file has no such server), for a run of `tenant`. */
export function configuredToolServer(id: string, tenant?: string): (ToolServer & { transport: 'mcp-stdio' | 'mcp-http'; mcpServerId: string }) | null {
  const servers = loadMcpServers();
  if (!servers.some((s) => s.id === id)) return null;
  const server = resolveServer(servers, id);
  if (server.kind === 'stdio') return { transport: 'mcp-stdio', mcpCommand: server.command, mcpCwd: server.cwd, mcpEnv: server.env, mcpServerId: id };
  return { transport: 'mcp-http', mcpUrl: server.url, mcpHeaders: server.headers, mcpServerId: id, ...(tenant !== undefined ? { mcpAuth: tenantOAuthProvider(tenant, server, 'run') } : {}) };
}
