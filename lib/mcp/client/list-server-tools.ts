/**
 * What the Tools page shows: each configured tool server (config/mcp-servers.json) and the tools it
 * lists — name, title, description, input and output schemas, annotations — or why it could not be
 * reached. Asked only when an operator refreshes (the page reads the stored result), every server
 * at once, each within REFRESH_LIMIT_MS. Header values and environment variables never leave this module.
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { httpConnection, stdioConnection } from './connections';
import { McpToolExecutor } from './mcp-executor';
import { protectedResourceOf } from './oauth/needs-authorization';
import { loadMcpServers, resolveServer, summarise, type McpServerEntry, type McpServerSummary } from './server-config';

/** How long one server may take to connect and list its tools. */
export const LIST_TOOLS_TIMEOUT_MS = 10_000;
/** The whole refresh of one server, spawn to answer: past it the server is reported as not answering. */
export const REFRESH_LIMIT_MS = 15_000;

export interface ServerTools {
  server: McpServerSummary;
  /** The server's name and version from its handshake. */
  serverInfo: { name: string; version: string } | null;
  tools: Tool[];
  /** Why nothing is listed (unreachable, a missing environment variable, …). */
  error: string | null;
  durationMs: number;
  /** An HTTP server: whether it publishes OAuth protected-resource metadata (only then can it be authorized). Null for stdio. */
  protectedResource: boolean | null;
}

export interface ListOptions {
  /** An OAuth client for a server that asks for authorization (the tenant's stored credentials). */
  authFor?: (serverId: string) => OAuthClientProvider | undefined;
  limitMs?: number;
}

async function listOne(entry: McpServerEntry, options: ListOptions): Promise<ServerTools> {
  const server = summarise(entry);
  const started = performance.now();
  let executor: McpToolExecutor | undefined;
  let timer: NodeJS.Timeout | undefined;
  const limitMs = options.limitMs ?? REFRESH_LIMIT_MS;
  // Asked beside the listing (not after a 401 only): a server may let anonymous clients list and still offer OAuth.
  const probe = entry.url !== undefined ? probeProtectedResource(entry) : Promise.resolve(null);
  const work = (async (): Promise<Omit<ServerTools, 'durationMs' | 'protectedResource'>> => {
    const resolved = resolveServer([entry], entry.id);
    const auth = resolved.kind === 'http' ? options.authFor?.(entry.id) : undefined;
    const connection =
      resolved.kind === 'stdio'
        ? stdioConnection({ command: resolved.command[0]!, args: resolved.command.slice(1), env: resolved.env, cwd: resolved.cwd })
        : httpConnection(resolved.url, undefined, resolved.headers, auth);
    executor = await McpToolExecutor.connect(connection, { connectTimeoutMs: LIST_TOOLS_TIMEOUT_MS, requestTimeoutMs: LIST_TOOLS_TIMEOUT_MS, serverId: entry.id });
    return { server, serverInfo: executor.serverInfo() ?? null, tools: await executor.listTools(), error: null };
  })();
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`did not answer within ${limitMs / 1000} s`)), limitMs);
  });
  try {
    const listed = await Promise.race([work, limit]);
    return { ...listed, durationMs: performance.now() - started, protectedResource: await probe };
  } catch (err) {
    // The first line only: a stdio child's stderr tail may follow, and it is the server's, not ours to show.
    const message = (err instanceof Error ? err.message : String(err)).split('\n')[0] ?? 'unknown error';
    return { server, serverInfo: null, tools: [], error: message, durationMs: performance.now() - started, protectedResource: await probe };
  } finally {
    clearTimeout(timer);
    // A server past its limit is closed once its connection attempt ends (it is not waited for here).
    void work.catch(() => undefined).finally(() => executor?.close());
  }
}

/** Whether an HTTP entry publishes protected-resource metadata; false when its URL cannot be resolved (a missing variable). */
async function probeProtectedResource(entry: McpServerEntry): Promise<boolean> {
  try {
    const resolved = resolveServer([entry], entry.id);
    return resolved.kind === 'http' && (await protectedResourceOf(resolved.url)) !== null;
  } catch {
    return false;
  }
}

/** Every configured server with its tools, in the file's order (servers listed in parallel). */
export async function listConfiguredServerTools(servers: readonly McpServerEntry[] = loadMcpServers(), options: ListOptions = {}): Promise<ServerTools[]> {
  return Promise.all(servers.map((s) => listOne(s, options)));
}
