/**
 * Tool servers the deployment offers, from `config/mcp-servers.json` (or the file named by
 * STOCKROOM_MCP_SERVERS): each has an id, and either a stdio command (an argv array, run from the
 * repository root, never through a shell) or a streamable-HTTP URL with headers. Header values may
 * name environment variables as `${NAME}`; they are filled in when a server is resolved, so secrets
 * live in the environment, not in the file, and are never shown. The browser only ever sends an id.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { ConfigError } from '../harness/errors';
import { safeJsonParse } from '../harness/json';
import { REPO_ROOT } from './paths';

export const DEFAULT_MCP_SERVERS_FILE = path.join('config', 'mcp-servers.json');

const ServerEntrySchema = z
  .strictObject({
    id: z.string().regex(/^[a-z0-9][a-z0-9-]{0,39}$/, 'an id is lowercase letters, digits and dashes (at most 40)'),
    title: z.string().min(1).max(120).optional(),
    command: z.array(z.string().min(1)).min(1).optional(),
    url: z.url().optional(),
    headers: z.record(z.string().regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, 'a header name'), z.string()).optional(),
  })
  .refine((s) => (s.command === undefined) !== (s.url === undefined), 'give either command or url')
  .refine((s) => s.headers === undefined || s.url !== undefined, 'headers only apply to a url');

const ServersFileSchema = z.strictObject({
  servers: z.array(ServerEntrySchema).refine((list) => new Set(list.map((s) => s.id)).size === list.length, 'server ids must be unique'),
});

export type McpServerEntry = z.infer<typeof ServerEntrySchema>;

/** A configured server as the UI may show it: no header values, only which variables they need. */
export interface McpServerSummary {
  id: string;
  title: string;
  kind: 'stdio' | 'http';
  /** The command line or URL (header values are not part of it). */
  target: string;
  headerNames: string[];
}

/** A server ready to connect to: its command, or its URL with the headers filled in. */
export type ResolvedMcpServer =
  | { id: string; kind: 'stdio'; command: string[]; cwd: string }
  | { id: string; kind: 'http'; url: string; headers: Record<string, string> };

export function mcpServersFilePath(env: Readonly<Record<string, string | undefined>> = process.env): string {
  return path.resolve(REPO_ROOT, env.STOCKROOM_MCP_SERVERS ?? DEFAULT_MCP_SERVERS_FILE);
}

/** Reads and validates the servers file; no file means no servers. A bad file is a ConfigError naming the field. */
export function loadMcpServers(file: string = mcpServersFilePath()): McpServerEntry[] {
  if (!existsSync(file)) return [];
  const parsed = safeJsonParse(readFileSync(file, 'utf8'));
  if (!parsed.ok) throw new ConfigError('mcp-servers', `${file} is not JSON: ${parsed.error}`);
  const result = ServersFileSchema.safeParse(parsed.value);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    throw new ConfigError('mcp-servers', `${file}: ${issue.path.join('.') || '(file)'}: ${issue.message}`);
  }
  return result.data.servers;
}

export function summarise(entry: McpServerEntry): McpServerSummary {
  return {
    id: entry.id,
    title: entry.title ?? entry.id,
    kind: entry.command ? 'stdio' : 'http',
    target: entry.command ? entry.command.join(' ') : (entry.url as string),
    headerNames: Object.keys(entry.headers ?? {}),
  };
}

/** `${NAME}` in a header value replaced from the environment; a missing variable names itself. */
function fillFromEnv(id: string, header: string, value: string, env: Readonly<Record<string, string | undefined>>): string {
  return value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_match, name: string) => {
    const found = env[name];
    if (found === undefined || found === '') {
      throw new ConfigError('mcp-servers', `tool server '${id}' needs the environment variable ${name} for its ${header} header`);
    }
    return found;
  });
}

/** The server with this id, ready to connect; an unknown id lists the known ones. */
export function resolveServer(
  servers: readonly McpServerEntry[],
  id: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
): ResolvedMcpServer {
  const entry = servers.find((s) => s.id === id);
  if (!entry) {
    throw new ConfigError('mcp-server', `no tool server '${id}' is configured; configured: ${servers.map((s) => s.id).join(', ') || 'none'}`);
  }
  if (entry.command) return { id, kind: 'stdio', command: [...entry.command], cwd: REPO_ROOT };
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(entry.headers ?? {})) headers[name] = fillFromEnv(id, name, value, env);
  return { id, kind: 'http', url: entry.url as string, headers };
}
