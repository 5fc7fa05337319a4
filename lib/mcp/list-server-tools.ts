/**
 * What the Tools page shows: each configured tool server (config/mcp-servers.json) and the tools it
 * lists — name, title, description, input and output schemas, annotations — or why it could not be
 * reached. Header values and environment variables never leave this module.
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { httpConnection, stdioConnection } from './connections';
import { McpToolExecutor } from './mcp-executor';
import { loadMcpServers, resolveServer, summarise, type McpServerEntry, type McpServerSummary } from './server-config';

/** How long one server may take to connect and list its tools on the page. */
export const LIST_TOOLS_TIMEOUT_MS = 10_000;

export interface ServerTools {
  server: McpServerSummary;
  /** The server's name and version from its handshake. */
  serverInfo: { name: string; version: string } | null;
  tools: Tool[];
  /** Why nothing is listed (unreachable, a missing environment variable, …). */
  error: string | null;
}

async function listOne(entry: McpServerEntry): Promise<ServerTools> {
  const server = summarise(entry);
  let executor: McpToolExecutor | undefined;
  try {
    const resolved = resolveServer([entry], entry.id);
    const connection =
      resolved.kind === 'stdio'
        ? stdioConnection({ command: resolved.command[0]!, args: resolved.command.slice(1), env: resolved.env, cwd: resolved.cwd })
        : httpConnection(resolved.url, undefined, resolved.headers);
    executor = await McpToolExecutor.connect(connection, { connectTimeoutMs: LIST_TOOLS_TIMEOUT_MS, requestTimeoutMs: LIST_TOOLS_TIMEOUT_MS });
    return { server, serverInfo: executor.serverInfo() ?? null, tools: await executor.listTools(), error: null };
  } catch (err) {
    // The first line only: a stdio child's stderr tail may follow, and it is the server's, not ours to show.
    const message = (err instanceof Error ? err.message : String(err)).split('\n')[0] ?? 'unknown error';
    return { server, serverInfo: null, tools: [], error: message };
  } finally {
    await executor?.close();
  }
}

/** Every configured server with its tools, in the file's order (servers listed in parallel). */
export async function listConfiguredServerTools(servers: readonly McpServerEntry[] = loadMcpServers()): Promise<ServerTools[]> {
  return Promise.all(servers.map(listOne));
}
