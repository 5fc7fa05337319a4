/**
 * Client-side connections for the three MCP transports: a linked in-memory pair, a stdio child
 * process, and streamable HTTP. Each returns an unstarted McpConnection for McpToolExecutor.connect.
 */
import { DEFAULT_INHERITED_ENV_VARS } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { WeaknessFlag } from '../../harness';
import { ExactEnvStdioTransport } from './exact-env-stdio';
import type { McpConnection } from './mcp-executor';
import { REPO_ROOT, STDIO_ENTRY } from '../shared';
import { bundledStdioEntry } from './stdio-bundle';
import { connectGuarded } from '../server';
import { createStockroomServer, type StockroomServerOptions } from '../server';
import { serverEnvironment } from './server-config';
import { STDERR_TAIL_CHARS } from './timeouts';


/** Variables a child may inherit beyond the SDK's safe list (tsx needs a temp dir). */
const EXTRA_INHERITED_ENV = ['TMPDIR', 'LANG', 'LC_ALL'] as const;

/**
 * The whole environment of a stdio child: the SDK's safe list (PATH, HOME, …), a temp dir and
 * locale, and the executor's own weakness flags — never the parent's STOCKROOM_* settings or secrets.
 */
// Not configuration (lib/startup/env.test.ts): the parent's environment is only filtered and handed to a child process.
export function childEnvironment(
  weaknesses: readonly WeaknessFlag[],
  parent: Readonly<Record<string, string | undefined>> = process.env,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const key of [...DEFAULT_INHERITED_ENV_VARS, ...EXTRA_INHERITED_ENV]) {
    const value = parent[key];
    // Exported shell functions are skipped, as the SDK's own default does.
    if (value !== undefined && !value.startsWith('()')) env[key] = value;
  }
  env.STOCKROOM_WEAKNESSES = [...weaknesses].sort().join(',');
  return env;
}

/**
 * The environment of a child spawned from a user's `--mcp-command`: PATH and HOME, and nothing of
 * ours (no STOCKROOM_* settings, no secrets). A configured server adds exactly what it declares.
 */
// Not configuration: the parent's environment, filtered, for a child process.
export function externalChildEnvironment(parent: Readonly<Record<string, string | undefined>> = process.env): Record<string, string> {
  return serverEnvironment({}, parent);
}

/** An in-process server joined to the client by a linked transport pair (tests, benchmarks). */
export async function memoryConnection(options: StockroomServerOptions): Promise<McpConnection> {
  // The harness's own server: the private reset is offered unless the caller says otherwise.
  const server = createStockroomServer({ offerReset: true, ...options });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await connectGuarded(server, serverSide);
  return {
    transport: clientSide,
    label: 'mcp-memory',
    target: `in-memory server for ${options.dataset.dir}`,
    afterClose: () => server.close(),
  };
}

export interface StdioCommand {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
}

/**
 * Any MCP server run as a child process speaking stdio, with exactly `spec.env` as its environment
 * (exact-env-stdio.ts); its stderr tail is kept for errors.
 */
export function stdioConnection(spec: StdioCommand): McpConnection {
  const transport = new ExactEnvStdioTransport({ command: spec.command, args: spec.args, env: spec.env ?? {}, ...(spec.cwd ? { cwd: spec.cwd } : {}) });
  let tail = '';
  // Reading stderr also keeps a chatty child from blocking on a full pipe.
  transport.stderr.on('data', (chunk: Buffer) => {
    tail = (tail + chunk.toString('utf8')).slice(-STDERR_TAIL_CHARS);
  });
  return {
    transport,
    label: 'mcp-stdio',
    target: [spec.command, ...spec.args].join(' '),
    diagnostics: () => tail,
  };
}

/**
 * The command line that runs our server over stdio for a dataset directory and weakness flags:
 * the bundled server under plain node when it can be built, else the TypeScript entry under tsx.
 */
export async function stockroomStdioCommand(
  datasetDir: string,
  weaknesses: readonly WeaknessFlag[],
  options: { bundled?: boolean } = {},
): Promise<StdioCommand> {
  const flags = [...weaknesses].sort().join(',');
  const bundle = options.bundled === false ? null : await bundledStdioEntry();
  const program = bundle ? [bundle] : ['--import', 'tsx', STDIO_ENTRY];
  return {
    command: process.execPath,
    args: [...program, '--dataset', datasetDir, ...(flags ? ['--weaknesses', flags] : [])],
    env: childEnvironment(weaknesses),
    cwd: REPO_ROOT,
  };
}

/**
 * A streamable HTTP session; closing it terminates the session on the server (DELETE). `headers`
 * go with every request (an `Authorization: Bearer …`, say) and never appear in the target label.
 * It can be opened again for a new session when the server ends this one (session-renewal.ts).
 */
export function httpConnection(url: string, fetchImpl?: typeof fetch, headers: Readonly<Record<string, string>> = {}, authProvider?: OAuthClientProvider): McpConnection {
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    ...(fetchImpl ? { fetch: fetchImpl } : {}),
    // A server that answers 401 with resource metadata is authorized through the provider (OAuth 2.1).
    ...(authProvider ? { authProvider } : {}),
    ...(Object.keys(headers).length > 0 ? { requestInit: { headers: { ...headers } } } : {}),
  });
  return {
    transport,
    label: 'mcp-http',
    target: url,
    beforeClose: () => (transport.sessionId ? transport.terminateSession() : Promise.resolve()),
    hasSession: () => transport.sessionId !== undefined,
    // A new session goes to the same URL with the same headers and OAuth provider (its token is sent again).
    reopen: () => httpConnection(url, fetchImpl, headers, authProvider),
  };
}
