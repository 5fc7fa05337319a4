/**
 * One factory for every tool transport, so run, eval and matrix choose a transport with a flag and
 * the harness never changes. With an MCP transport the flags that change the tools (descriptions,
 * payloads, shard failures) are the server's; the harness keeps its own copy for harness-side
 * behaviour. With a server that is not the harness's own (`mcpUrl`, `mcpCommand`), the server's
 * stated flags are confirmed before the executor is used: a server that cannot show the flags
 * asked for is refused, naming them, rather than quietly run without them.
 */
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { Transport, WeaknessFlag } from '../../harness';
import { ConfigError } from '../../harness';
import type { ToolExecutor } from '../../harness';
import type { Dataset } from '../../stockroom';
import { StockroomEnvironment } from '../../stockroom';
import { LocalToolExecutor } from '../../stockroom';
import { splitCommandLine } from './command-line';
import { externalChildEnvironment, httpConnection, memoryConnection, stdioConnection, stockroomStdioCommand } from './connections';
import { startStockroomHttpServer } from '../server';
import { McpToolExecutor, type McpConnection } from './mcp-executor';
import type { SessionCheck, SessionView } from './session-renewal';
import { SERVER_WEAKNESSES } from '../shared';

export interface CreateExecutorOptions {
  transport: Transport;
  dataset: Dataset;
  /** The weakness flags of the run; the server-side ones must be the server's. */
  weaknesses: readonly WeaknessFlag[];
  /**
   * `mcp-http` only: an already running server. Without it an in-process server is started on an
   * ephemeral loopback port for this executor and stopped by its close().
   */
  mcpUrl?: string;
  /** Headers sent with every request to `mcpUrl` (secrets: never logged or stored). */
  mcpHeaders?: Readonly<Record<string, string>>;
  /** The OAuth 2.1 client for `mcpUrl`, used when the server answers 401 (stored tokens, client credentials). */
  mcpAuth?: OAuthClientProvider;
  /** `mcp-stdio` only: any stdio MCP server's command line (or argv), instead of spawning our own. */
  mcpCommand?: string | readonly string[];
  /** Working directory of `mcpCommand` (default: this process's). */
  mcpCwd?: string;
  /** The whole environment of `mcpCommand` (a configured server's declared env, PATH and HOME); default PATH and HOME only. */
  mcpEnv?: Readonly<Record<string, string>>;
  /**
   * The configured id of the server (`--mcp-server ID`), which governance pins its tools under.
   * The harness's own servers are `stockroom`; an unnamed `--mcp-url`/`--mcp-command` server is
   * named by its URL or command line.
   */
  mcpServerId?: string;
}

/** The id the harness's own Stockroom servers are governed under (as in config/mcp-servers.json). */
export const OWN_SERVER_ID = 'stockroom';

async function ownHttpConnection(dataset: Dataset, weaknesses: readonly WeaknessFlag[]): Promise<McpConnection> {
  const running = await startStockroomHttpServer({ dataset, weaknesses, port: 0, offerReset: true });
  const connection = httpConnection(running.url);
  return { ...connection, afterClose: () => running.close() };
}

/** The flags a server must hold for a run with `weaknesses` (the harness keeps the rest). */
export function serverSideWeaknesses(weaknesses: readonly WeaknessFlag[]): WeaknessFlag[] {
  return weaknesses.filter((w) => (SERVER_WEAKNESSES as readonly string[]).includes(w)).sort();
}

const list = (flags: readonly string[]): string => (flags.length ? flags.join(', ') : 'none');

/** Why `executor`'s server cannot serve `wanted`, or null when its stated flags are exactly those. */
export function weaknessMismatch(executor: SessionView, wanted: readonly WeaknessFlag[]): string | null {
  const stated = executor.serverWeaknesses();
  if (stated === undefined) {
    if (wanted.length === 0) return null;
    return `the MCP server at ${executor.target} does not state its weakness flags, so [${list(wanted)}] cannot be confirmed; run these flags against the Stockroom server`;
  }
  const active = stated.active.filter((f) => (SERVER_WEAKNESSES as readonly string[]).includes(f)).sort();
  if (active.join(',') === wanted.join(',')) return null;
  return (
    `the MCP server at ${executor.target} has weakness flags [${list(active)}] but this run asks for [${list(wanted)}]; ` +
    (stated.perSession ? 'it refused to switch' : 'start it with those flags, or with --session-weaknesses so each run can choose')
  );
}

/** Every later session (after the server ended the first) must state the flags the first confirmed. */
const confirming = (wanted: readonly WeaknessFlag[]): SessionCheck => (session) => weaknessMismatch(session, wanted);

/** Connects and confirms the flags; closes and throws ConfigError naming them on a mismatch. */
async function connectConfirmed(connection: McpConnection, wanted: WeaknessFlag[], floatKeys: Dataset['floatKeys'], serverId?: string, askInHandshake = false): Promise<McpToolExecutor> {
  const executor = await McpToolExecutor.connect(connection, {
    floatKeys,
    ...(serverId !== undefined ? { serverId } : {}),
    ...(askInHandshake ? { requestWeaknesses: wanted } : {}),
    sessionCheck: confirming(wanted),
  });
  const mismatch = weaknessMismatch(executor, wanted);
  if (mismatch === null) return executor;
  await executor.close();
  throw new ConfigError('weaknesses', mismatch);
}

/** `url` with `?weaknesses=` set, for a server that lets each session choose. */
function withWeaknessesParam(url: string, wanted: readonly WeaknessFlag[]): string {
  const u = new URL(url);
  u.searchParams.set('weaknesses', wanted.join(','));
  return u.toString();
}

/**
 * Connects to someone else's server plainly first: nothing of ours (no `?weaknesses=`, no experimental
 * capability) goes to a server that did not say it understands it. Only when the server states flags
 * other than `wanted` and lets each session choose is it connected to again, asking for them (`asking`:
 * the connection that asks, and whether in the handshake), and the flags confirmed.
 */
async function connectPlainThenAsk(
  plain: McpConnection,
  asking: { connection: () => McpConnection; inHandshake: boolean },
  wanted: WeaknessFlag[],
  floatKeys: Dataset['floatKeys'],
  serverId?: string,
): Promise<McpToolExecutor> {
  const first = await McpToolExecutor.connect(plain, { floatKeys, ...(serverId !== undefined ? { serverId } : {}), sessionCheck: confirming(wanted) });
  const mismatch = weaknessMismatch(first, wanted);
  if (mismatch === null) return first;
  await first.close();
  if (first.serverWeaknesses()?.perSession !== true) throw new ConfigError('weaknesses', mismatch);
  return connectConfirmed(asking.connection(), wanted, floatKeys, serverId, asking.inHandshake);
}

async function externalHttpExecutor(url: string, headers: Readonly<Record<string, string>>, wanted: WeaknessFlag[], dataset: Dataset, serverId?: string, auth?: OAuthClientProvider): Promise<McpToolExecutor> {
  if (new URL(url).searchParams.has('weaknesses')) return connectConfirmed(httpConnection(url, undefined, headers, auth), wanted, dataset.floatKeys, serverId);
  const asking = { connection: () => httpConnection(withWeaknessesParam(url, wanted), undefined, headers, auth), inHandshake: false };
  return connectPlainThenAsk(httpConnection(url, undefined, headers, auth), asking, wanted, dataset.floatKeys, serverId);
}

/** Builds a connected executor for the transport; an unreachable MCP server is an ExecutorError. */
export async function createExecutor(options: CreateExecutorOptions): Promise<ToolExecutor> {
  const { transport, dataset, weaknesses, mcpUrl, mcpCommand } = options;
  if (mcpUrl !== undefined && transport !== 'mcp-http') {
    throw new ConfigError('mcpUrl', `--mcp-url only applies to --transport mcp-http (got ${transport})`);
  }
  if (mcpCommand !== undefined && transport !== 'mcp-stdio') {
    throw new ConfigError('mcpCommand', `--mcp-command only applies to --transport mcp-stdio (got ${transport})`);
  }
  if (options.mcpHeaders !== undefined && Object.keys(options.mcpHeaders).length > 0 && mcpUrl === undefined) {
    throw new ConfigError('mcpHeaders', '--mcp-header needs --mcp-url (headers go to an HTTP server)');
  }
  if (mcpUrl !== undefined && !URL.canParse(mcpUrl)) throw new ConfigError('mcpUrl', `--mcp-url is not a URL: '${mcpUrl}'`);
  // Only the servers started right here are the harness's own (per-run reset, private tools hidden).
  const executorOptions = { floatKeys: dataset.floatKeys, serverId: OWN_SERVER_ID, ownServer: true };
  const serverId = options.mcpServerId;
  const wanted = serverSideWeaknesses(weaknesses);
  switch (transport) {
    case 'local':
      return new LocalToolExecutor(new StockroomEnvironment(dataset, [...weaknesses]));
    case 'mcp-memory':
      return McpToolExecutor.connect(await memoryConnection({ dataset, weaknesses }), executorOptions);
    case 'mcp-stdio': {
      if (mcpCommand === undefined) {
        return McpToolExecutor.connect(stdioConnection(await stockroomStdioCommand(dataset.dir, weaknesses)), executorOptions);
      }
      const [command, ...args] = typeof mcpCommand === 'string' ? splitCommandLine(mcpCommand) : [...mcpCommand];
      const spec = { command: command as string, args, env: { ...(options.mcpEnv ?? externalChildEnvironment()) }, ...(options.mcpCwd ? { cwd: options.mcpCwd } : {}) };
      // A stdio server has no URL for ?weaknesses=: a server that lets each session choose is started
      // again and asked in the handshake; a stranger is never sent the capability.
      return connectPlainThenAsk(stdioConnection(spec), { connection: () => stdioConnection(spec), inHandshake: true }, wanted, dataset.floatKeys, serverId);
    }
    case 'mcp-http':
      // Our own server states the flags it was started with; a new session must state them again.
      if (mcpUrl === undefined) return McpToolExecutor.connect(await ownHttpConnection(dataset, weaknesses), { ...executorOptions, sessionCheck: confirming(wanted) });
      return externalHttpExecutor(mcpUrl, options.mcpHeaders ?? {}, wanted, dataset, serverId, options.mcpAuth);
  }
}
