/**
 * Tool servers the deployment offers, from `config/mcp-servers.json` (or the file named by
 * STOCKROOM_MCP_SERVERS), in either of two shapes:
 *
 *   ours         {"servers": [{"id", "title"?, "command": [argv…] | "url", "headers"?, "env"?}]}
 *   mcp.json     {"mcpServers": {"<id>": {"command", "args"?, "env"?} | {"url", "headers"?}}}
 *                (Claude Desktop and Cursor; VS Code's {"servers": {"<id>": {…, "type"?}}} too)
 *
 * A stdio command is an argv run from the repository root, never through a shell. Values in
 * `args`, `env`, `url` and `headers` may name environment variables as `${NAME}` (or VS Code's
 * `${env:NAME}`), filled in when a server is resolved, so secrets live in the environment, not in
 * the file, and are never shown: a summary carries the unfilled template, names of variables and
 * headers, and a URL without credentials or query values. `${DASHBOARD_URL}` is this dashboard's
 * own address (STOCKROOM_DASHBOARD_URL, else BETTER_AUTH_URL, else 127.0.0.1 on PORT), so the
 * bundled file follows whatever port it is served on. The browser only ever sends an id.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { ConfigError } from '../../harness';
import { safeJsonParse } from '../../harness';
import { REPO_ROOT } from '../shared';

export const DEFAULT_MCP_SERVERS_FILE = path.join('config', 'mcp-servers.json');

const ID = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'a server id is letters, digits, . _ - (at most 64, starting with a letter or digit)');
const HEADER_NAME = z.string().regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, 'a header name');
const ENV_NAME = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'an environment variable name');
const Headers = z.record(HEADER_NAME, z.string());
const Env = z.record(ENV_NAME, z.string());
/**
 * OAuth 2.1 client settings for a remote server, when its operator registered us rather than
 * letting us register ourselves: `client_credentials` for machine access (workers need no person),
 * else the authorization code flow with these credentials. Secrets as `${VAR}`.
 */
const OAuth = z.strictObject({
  grant: z.enum(['authorization_code', 'client_credentials']).default('authorization_code'),
  clientId: z.string().min(1),
  clientSecret: z.string().min(1).optional(),
  scope: z.string().min(1).optional(),
  /** The authorization server the credentials belong to (they are never sent to another). */
  issuer: z.string().min(1).optional(),
});
export type McpOAuthSettings = z.infer<typeof OAuth>;

const OurEntrySchema = z
  .strictObject({
    id: ID,
    title: z.string().min(1).max(120).optional(),
    command: z.array(z.string().min(1)).min(1).optional(),
    env: Env.optional(),
    url: z.string().min(1).optional(),
    headers: Headers.optional(),
    oauth: OAuth.optional(),
  })
  .refine((s) => (s.command === undefined) !== (s.url === undefined), 'give either command or url')
  .refine((s) => s.oauth === undefined || s.url !== undefined, 'oauth only applies to a url')
  .refine((s) => s.headers === undefined || s.url !== undefined, 'headers only apply to a url')
  .refine((s) => s.env === undefined || s.command !== undefined, 'env only applies to a command');

/** One entry of an mcp.json file (extra keys such as `disabled` or `autoApprove` are ignored). */
const McpJsonEntrySchema = z
  .looseObject({
    title: z.string().min(1).max(120).optional(),
    type: z.enum(['stdio', 'http', 'streamable-http', 'streamableHttp'], { error: 'type must be stdio or http (SSE servers are not supported)' }).optional(),
    command: z.string().min(1).optional(),
    args: z.array(z.string()).optional(),
    env: Env.optional(),
    url: z.string().min(1).optional(),
    headers: Headers.optional(),
    oauth: OAuth.optional(),
  })
  .refine((s) => (s.command === undefined) !== (s.url === undefined), 'give either command (with args) or url')
  .refine((s) => (s.headers === undefined || s.url !== undefined) && (s.args === undefined || s.command !== undefined), 'args go with a command, headers with a url');

const uniqueIds = (list: { id: string }[]) => new Set(list.map((s) => s.id)).size === list.length;

const OursFileSchema = z.strictObject({ servers: z.array(OurEntrySchema).refine(uniqueIds, 'server ids must be unique') });
const McpJsonFileSchema = z.looseObject({ mcpServers: z.record(ID, McpJsonEntrySchema) });
const VsCodeFileSchema = z.looseObject({ servers: z.record(ID, McpJsonEntrySchema) });

export type McpServerEntry = z.infer<typeof OurEntrySchema>;

/** A configured server as the UI may show it: no secret, only which variables and headers it needs. */
export interface McpServerSummary {
  id: string;
  title: string;
  kind: 'stdio' | 'http';
  /** The command line (variables unfilled) or the URL (no credentials, no query values). */
  target: string;
  headerNames: string[];
  /** Names of the variables a stdio server is given (values never shown). */
  envNames: string[];
  /** How the server is authorized when it asks (OAuth 2.1): by an operator, or by client credentials. */
  oauth: 'authorization_code' | 'client_credentials' | null;
}

/** A server ready to connect to: its command with its whole environment, or its URL with the headers filled in. */
export type ResolvedMcpServer =
  | { id: string; kind: 'stdio'; command: string[]; cwd: string; env: Record<string, string> }
  | { id: string; kind: 'http'; url: string; headers: Record<string, string>; oauth?: McpOAuthSettings };

type Env = Readonly<Record<string, string | undefined>>;

export function mcpServersFilePath(env: Env = process.env): string {
  return path.resolve(REPO_ROOT, env.STOCKROOM_MCP_SERVERS ?? DEFAULT_MCP_SERVERS_FILE);
}

function refused(file: string, error: z.ZodError): never {
  const issue = error.issues[0]!;
  throw new ConfigError('mcp-servers', `${file}: ${issue.path.join('.') || '(file)'}: ${issue.message}`);
}

function fromMcpJson(servers: Record<string, z.infer<typeof McpJsonEntrySchema>>): McpServerEntry[] {
  return Object.entries(servers).map(([id, s]) =>
    s.command !== undefined
      ? { id, ...(s.title ? { title: s.title } : {}), command: [s.command, ...(s.args ?? [])], ...(s.env ? { env: s.env } : {}) }
      : { id, ...(s.title ? { title: s.title } : {}), url: s.url as string, ...(s.headers ? { headers: s.headers } : {}), ...(s.oauth ? { oauth: s.oauth } : {}) },
  );
}

/** Reads and validates the servers file (either shape); no file means no servers. A bad file is a ConfigError naming the field. */
export function loadMcpServers(file: string = mcpServersFilePath()): McpServerEntry[] {
  if (!existsSync(file)) return [];
  const parsed = safeJsonParse(readFileSync(file, 'utf8'));
  if (!parsed.ok) throw new ConfigError('mcp-servers', `${file} is not JSON: ${parsed.error}`);
  const value = parsed.value as Record<string, unknown> | null;
  if (value !== null && typeof value === 'object' && 'mcpServers' in value) {
    const r = McpJsonFileSchema.safeParse(value);
    return r.success ? fromMcpJson(r.data.mcpServers) : refused(file, r.error);
  }
  if (value !== null && typeof value === 'object' && 'servers' in value && !Array.isArray(value.servers)) {
    const r = VsCodeFileSchema.safeParse(value);
    return r.success ? fromMcpJson(r.data.servers) : refused(file, r.error);
  }
  const r = OursFileSchema.safeParse(value);
  return r.success ? r.data.servers : refused(file, r.error);
}

/** A URL with its credentials and query values left out (they are often secrets). */
export function displayUrl(url: string): string {
  if (!URL.canParse(url)) return url.replace(/\?.*$/, '?…');
  const u = new URL(url);
  u.username = '';
  u.password = '';
  for (const key of [...u.searchParams.keys()]) u.searchParams.set(key, '…');
  return decodeURI(u.toString());
}

export function summarise(entry: McpServerEntry): McpServerSummary {
  return {
    id: entry.id,
    title: entry.title ?? entry.id,
    kind: entry.command ? 'stdio' : 'http',
    target: entry.command ? entry.command.join(' ') : displayUrl(entry.url as string),
    headerNames: Object.keys(entry.headers ?? {}),
    envNames: Object.keys(entry.env ?? {}),
    oauth: entry.url === undefined ? null : (entry.oauth?.grant ?? 'authorization_code'),
  };
}

/** This dashboard's own address, for `${DASHBOARD_URL}`. */
export function dashboardUrl(env: Env = process.env): string {
  const base = env.STOCKROOM_DASHBOARD_URL || env.BETTER_AUTH_URL || `http://127.0.0.1:${env.PORT || '3000'}`;
  return base.replace(/\/+$/, '');
}

/** `${NAME}` / `${env:NAME}` in `value` replaced from the environment; a missing variable names itself and where it is needed. */
function fill(id: string, where: string, value: string, env: Env): string {
  return value.replace(/\$\{(?:env:)?([A-Za-z_][A-Za-z0-9_]*)\}/g, (_match, name: string) => {
    const found = name === 'DASHBOARD_URL' ? dashboardUrl(env) : env[name];
    if (found === undefined || found === '') throw new ConfigError('mcp-servers', `tool server '${id}' needs the environment variable ${name} for ${where}`);
    return found;
  });
}

/** The environment a stdio server runs with: exactly what it declares, plus PATH and HOME. */
// Not configuration: the parent's PATH and HOME handed to a child process.
export function serverEnvironment(declared: Readonly<Record<string, string>>, parent: Env = process.env): Record<string, string> {
  const env: Record<string, string> = {};
  for (const key of ['PATH', 'HOME'] as const) {
    const value = parent[key];
    if (value !== undefined) env[key] = value;
  }
  return { ...env, ...declared };
}

/** The server with this id, ready to connect; an unknown id lists the known ones. */
export function resolveServer(servers: readonly McpServerEntry[], id: string, env: Env = process.env): ResolvedMcpServer {
  const entry = servers.find((s) => s.id === id);
  if (!entry) {
    throw new ConfigError('mcp-server', `no tool server '${id}' is configured; configured: ${servers.map((s) => s.id).join(', ') || 'none'}`);
  }
  if (entry.command) {
    const command = entry.command.map((arg, i) => (i === 0 ? arg : fill(id, `argument ${i}`, arg, env)));
    const declared = Object.fromEntries(Object.entries(entry.env ?? {}).map(([name, value]) => [name, fill(id, `its ${name} variable`, value, env)]));
    return { id, kind: 'stdio', command, cwd: REPO_ROOT, env: serverEnvironment(declared, env) };
  }
  const url = fill(id, 'its url', entry.url as string, env);
  if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol)) throw new ConfigError('mcp-servers', `tool server '${id}': its url is not an http(s) URL`);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(entry.headers ?? {})) headers[name] = fill(id, `its ${name} header`, value, env);
  const oauth = entry.oauth
    ? { ...entry.oauth, clientId: fill(id, 'its OAuth client id', entry.oauth.clientId, env), ...(entry.oauth.clientSecret ? { clientSecret: fill(id, 'its OAuth client secret', entry.oauth.clientSecret, env) } : {}) }
    : undefined;
  return { id, kind: 'http', url, headers, ...(oauth ? { oauth } : {}) };
}
