/**
 * Runs the Stockroom MCP server until it is told to stop: over stdio (the parent owns our stdin and
 * stdout; logs go to stderr only) or over streamable HTTP (graceful shutdown on SIGINT/SIGTERM).
 * Shared by the `mcp-server` CLI command and the small stdio entry the executor spawns.
 *
 * The stand-alone server is for outside clients: it offers no reset, and it refuses every write
 * unless started with `--policy FILE`, when writes go through that policy, an effect journal and
 * an evidence chain (kept in the server's memory). Only the executor's own child (`harnessChild`)
 * offers the private reset and leaves writes to the harness, which governs its runs itself.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import type { WeaknessFlag } from '../../harness';
import { PeekingTransport, requestedWeaknesses } from '../shared';
import { ConfigError, HarnessError } from '../../harness';
import type { JournalStore } from '../../governance';
import type { EvidenceSink } from '../../governance';
import { MCP_RUN_PREFIX, type McpApprovalStore } from './mcp-approvals';
import { MemoryEvidenceSink } from '../../governance';
import { MemoryJournalStore } from '../../governance';
import { loadPolicyFile } from '../../governance';
import { DEFAULT_TENANT, OPERATOR_SCOPES } from '../../governance';
import { defaultDatasetDir, loadDataset } from '../../stockroom';
import { startStockroomHttpServer } from './http-server';
import { connectGuarded } from './request-guard';
import { parseServerFlags, type ServerFlags } from './server-options';
import { createStockroomServer } from './stockroom-server';
import { GovernedWrites, OPEN_WRITES, refusingWrites, type WriteGate } from './write-gate';

/** Why the stand-alone server refuses writes, as its clients read it. */
export const NO_POLICY_REFUSAL =
  'writes are refused: this MCP server was started without a governance policy (start it with --policy config/policy.json to let writes through the policy, the journal and the evidence)';

/** Governance storage in the dashboard's database (handed in by the CLI, which may open it). */
export interface DatabaseGovernance {
  journal: JournalStore;
  evidence: EvidenceSink;
  approvals: McpApprovalStore;
}

export interface ServeOptions {
  /** The harness's own stdio child: offers the private reset, writes open (the harness governs). */
  harnessChild?: boolean;
  /** Opens the dashboard's database for `--approvals`; without it `--approvals` is refused. */
  openDatabaseGovernance?: () => Promise<DatabaseGovernance>;
}

/** The write gate for one session of a stand-alone server. */
async function writeGateFactory(flags: ServerFlags, options: ServeOptions): Promise<(sessionId: string) => WriteGate> {
  if (options.harnessChild) return () => OPEN_WRITES;
  if (flags.policyFile === undefined) return () => refusingWrites(NO_POLICY_REFUSAL);
  const policy = loadPolicyFile(flags.policyFile);
  if (flags.approvals) {
    if (!options.openDatabaseGovernance) throw new ConfigError('approvals', '--approvals is only available from the stockroom CLI (it needs the dashboard database)');
    const { journal, evidence, approvals } = await options.openDatabaseGovernance();
    // One actor across sessions and restarts, so a retry from a new session finds its approval.
    return () =>
      new GovernedWrites({
        policy,
        principal: { subject: flags.actor, tenant: DEFAULT_TENANT, scopes: [...OPERATOR_SCOPES] },
        runTenant: DEFAULT_TENANT,
        journal,
        evidence,
        runId: `${MCP_RUN_PREFIX}${flags.actor}`,
        approvals,
      });
  }
  const journal = new MemoryJournalStore();
  const evidence = new MemoryEvidenceSink();
  return (sessionId) =>
    new GovernedWrites({
      policy,
      principal: { subject: `mcp-session:${sessionId}`, tenant: DEFAULT_TENANT, scopes: [...OPERATOR_SCOPES] },
      runTenant: DEFAULT_TENANT,
      journal,
      evidence,
      runId: `${MCP_RUN_PREFIX}${sessionId}`,
    });
}

const log = (message: string): void => {
  process.stderr.write(`${message}\n`);
};

/** Resolves when a termination signal arrives. */
function untilSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    process.once('SIGINT', () => resolve('SIGINT'));
    process.once('SIGTERM', () => resolve('SIGTERM'));
  });
}

/**
 * The transport and flags of a stdio session: with --session-weaknesses the client's initialize
 * request may choose the flags (session-weaknesses.ts), else the server's own flags hold.
 */
async function stdioSession(flags: ServerFlags): Promise<{ transport: Transport; weaknesses: readonly WeaknessFlag[] } | null> {
  const stdio = new StdioServerTransport();
  if (!flags.sessionWeaknesses) return { transport: stdio, weaknesses: flags.weaknesses };
  const peeking = new PeekingTransport(stdio);
  const first = await peeking.first();
  if (first === null) return null;
  const requested = requestedWeaknesses(first);
  if (!requested.ok) {
    if ('id' in first) await stdio.send({ jsonrpc: '2.0', id: first.id, error: { code: ErrorCode.InvalidParams, message: `Invalid params: ${requested.message}` } });
    await stdio.close();
    throw new ConfigError('weaknesses', requested.message);
  }
  return { transport: peeking, weaknesses: requested.weaknesses ?? flags.weaknesses };
}

async function serveStdio(flags: ServerFlags, datasetDir: string, options: ServeOptions): Promise<number> {
  const dataset = loadDataset(datasetDir);
  const writes = (await writeGateFactory(flags, options))('stdio');
  const session = await stdioSession(flags);
  if (session === null) return 0;
  const { transport, weaknesses } = session;
  const server = createStockroomServer({ dataset, weaknesses, offerReset: options.harnessChild === true, writes, log, perSessionWeaknesses: flags.sessionWeaknesses, conformanceTools: flags.conformanceTools });
  const closed = new Promise<void>((resolve) => {
    server.onclose = resolve;
    // The parent closing our stdin is the normal end of a stdio session.
    process.stdin.once('end', () => resolve());
  });
  await connectGuarded(server, transport);
  log(`stockroom MCP server on stdio (dataset ${dataset.dir}, weaknesses [${weaknesses.join(', ')}]${flags.sessionWeaknesses ? ', chosen by the client' : ''}, writes ${writes.mode})`);
  await Promise.race([closed, untilSignal()]);
  await server.close();
  return 0;
}

async function serveHttp(flags: ServerFlags, datasetDir: string, options: ServeOptions): Promise<number> {
  const dataset = loadDataset(datasetDir);
  const writesFor = await writeGateFactory(flags, options);
  const running = await startStockroomHttpServer({
    writesFor,
    perSessionWeaknesses: flags.sessionWeaknesses,
    conformanceTools: flags.conformanceTools,
    sessionIdleMs: flags.sessionIdleMs,
    offerReset: options.harnessChild === true,
    dataset,
    weaknesses: flags.weaknesses,
    host: flags.host,
    port: flags.port,
    allowedHostnames: flags.allowedHostnames,
    log,
  });
  log(
    `stockroom MCP server on ${running.url} (dataset ${dataset.dir}, weaknesses [${flags.weaknesses.join(', ')}]${flags.sessionWeaknesses ? ', per-session weaknesses allowed' : ''}, writes ${writesFor('-').mode})`,
  );
  const signal = await untilSignal();
  log(`${signal}: closing ${running.sessionCount()} session(s)`);
  await running.close();
  return 0;
}

/** Parses `mcp-server` flags and serves until stopped; returns the process exit code. */
export async function runMcpServer(argv: readonly string[], options: ServeOptions = {}): Promise<number> {
  try {
    const flags = parseServerFlags(argv);
    const datasetDir = flags.datasetDir ?? defaultDatasetDir();
    return flags.transport === 'stdio' ? await serveStdio(flags, datasetDir, options) : await serveHttp(flags, datasetDir, options);
  } catch (err) {
    // Expected refusals (bad flag, bad dataset, port in use) get one line; anything else its stack.
    const known = err instanceof HarnessError || (err instanceof Error && 'code' in err && err.code === 'EADDRINUSE');
    log(`mcp-server: ${known ? (err as Error).message : err instanceof Error ? err.stack : String(err)}`);
    return 2;
  }
}
