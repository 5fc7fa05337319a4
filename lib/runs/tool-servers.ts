/**
 * The tool servers configured in config/mcp-servers.json, as the run service's `ToolServer`: the
 * dashboard names one by id (commands and URLs never come from the browser), and suites carry the
 * id in their job so each worker connects to it itself.
 */
import { loadMcpServers, resolveServer } from '../mcp/server-config';
import type { ToolServer } from './agent';

/** The configured server `id` (null when the file has no such server). */
export function configuredToolServer(id: string): (ToolServer & { transport: 'mcp-stdio' | 'mcp-http'; mcpServerId: string }) | null {
  const servers = loadMcpServers();
  if (!servers.some((s) => s.id === id)) return null;
  const server = resolveServer(servers, id);
  return server.kind === 'stdio'
    ? { transport: 'mcp-stdio', mcpCommand: server.command, mcpCwd: server.cwd, mcpEnv: server.env, mcpServerId: id }
    : { transport: 'mcp-http', mcpUrl: server.url, mcpHeaders: server.headers, mcpServerId: id };
}
