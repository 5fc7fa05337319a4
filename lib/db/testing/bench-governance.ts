import 'server-only';
/**
 * `npm run bench -- --only governance`: 50 concurrent governed starts on PostgreSQL, each the whole
 * data-layer path of the dashboard's start (evidence, policy decisions, journal, approval request,
 * governed-run row and the stored run) on one connection pool, as one server process does. Prints
 * p50 / p95 of the starts and the transactions PostgreSQL rolled back meanwhile (append contention).
 */
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { migrate } from '../../../scripts/db-migrate.mjs';
import { defaultGoldenPath } from '../../eval';
import { loadGoldenFile } from '../../eval';
import { startGovernedRun, type AgentDriver, type GovernedContext } from '../../governance';
import { loadPolicyFile } from '../../governance';
import { OPERATOR_SCOPES } from '../../governance';
import { resolveConfig } from '../../harness';
import { createStockroomAgent } from '../../stockroom';
import { defaultDatasetDir, loadDataset } from '../../stockroom';
import { StockroomEnvironment } from '../../stockroom';
import { LocalToolExecutor } from '../../stockroom';
import { DurableLedgerExecutor, LEDGER_WRITE_TOOL } from '../../stockroom';
import { openDatabase, type Database } from '../core';
import type { GoldenCase } from '../../eval';
import type { HarnessConfig } from '../../harness';
import type { LoadedPolicy } from '../../governance';
import type { Dataset } from '../../stockroom';
import { prismaGovernanceStore } from '../governance';
import { newId } from '../core';
import { PrismaLedgerStore } from '../governance';
import { saveRun } from '../runs';
import { createTestDatabaseUrl } from './test-databases';

/** Concurrent starts measured (the figure in issue 9). */
const CONCURRENT_STARTS = 50;

async function rollbacks(url: string): Promise<number> {
  const name = new URL(url).pathname.slice(1);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string }>('SELECT xact_rollback::text AS n FROM pg_stat_database WHERE datname = $1', [name]);
    return Number(rows[0]?.n ?? 0);
  } finally {
    await client.end();
  }
}

/** One governed start as the dashboard makes it (agent under the policy, then the stored run). */
export async function governedStart(
  db: Database,
  input: { dataset: Dataset; config: HarnessConfig; policy: LoadedPolicy; golden: GoldenCase },
): Promise<void> {
  const { dataset, config, policy, golden: c } = input;
  const runId = newId();
  const executor = new DurableLedgerExecutor(new LocalToolExecutor(new StockroomEnvironment(dataset, [])), new PrismaLedgerStore(db.prisma), runId);
  const driver: AgentDriver = {
    run: async (ex, p, operationKey, id) => (await createStockroomAgent({ dataset, config, executor: ex, policy: p })).run(c.query, c.id, { runId: id, operationKey }),
    resume: async () => {
      throw new Error('not resumed in this bench');
    },
  };
  // The store as the dashboard's start makes it (lib/runs/governed-context.ts): it knows whose run it writes for.
  const ctx: GovernedContext = { store: prismaGovernanceStore(db.prisma, { tenant: 'kittiwake', subject: 'bench-operator' }), policy, executor, driver };
  const out = await startGovernedRun(ctx, { principal: { subject: 'bench-operator', tenant: 'kittiwake', scopes: [...OPERATOR_SCOPES] }, runTenant: 'kittiwake', spec: { caseId: c.id }, runId });
  await saveRun(out.result, { id: runId, createdBy: null, datasetName: dataset.name, datasetHash: dataset.hash, transport: 'local', category: c.category, config: config as unknown as Record<string, unknown>, suiteRunId: null }, db);
}

export async function benchGovernance(): Promise<{ name: string; value: number; unit: string; target?: string; detail?: string }[]> {
  const { url, drop } = await createTestDatabaseUrl('postgres');
  await migrate({ url });
  // Not a read of configuration: the benchmark gives its own process a key when the operator set none.
  process.env.STOCKROOM_EVIDENCE_KEY ??= 'bench-evidence-key-0123456789abcdef0123456789';
  const db = openDatabase(url);
  try {
    const dataset = loadDataset(defaultDatasetDir());
    const golden = loadGoldenFile(defaultGoldenPath(dataset));
    const config = resolveConfig({});
    const policy = loadPolicyFile('config/policy.json');
    // Cases the dataset expects to write, so starts append decisions, effects and approval requests.
    const cases = golden.cases.filter((c) => c.expectedTools.some((t) => t.name === LEDGER_WRITE_TOOL)).slice(0, 10);
    const pick = cases.length > 0 ? cases : golden.cases.slice(0, 10);
    const start = async (i: number): Promise<number> => {
      const began = performance.now();
      await governedStart(db, { dataset, config, policy, golden: pick[i % pick.length]! });
      return performance.now() - began;
    };
    await start(0); // warm-up: the query compiler's first calls are not what we measure
    const alone = await start(1);
    const before = await rollbacks(url);
    const wall = performance.now();
    const cpu = process.cpuUsage();
    const ms = (await Promise.all(Array.from({ length: CONCURRENT_STARTS }, (_, i) => start(i)))).sort((a, b) => a - b);
    const total = performance.now() - wall;
    const used = process.cpuUsage(cpu);
    // This process's CPU (user + system) per start over the concurrent starts: the p95 is this times 50 when the starts are CPU-bound.
    const cpuPerStart = (used.user + used.system) / 1000 / CONCURRENT_STARTS;
    const rolledBack = (await rollbacks(url)) - before;
    const at = (q: number) => Math.round(ms[Math.min(ms.length - 1, Math.floor(q * ms.length))]! );
    return [
      { name: `${CONCURRENT_STARTS} concurrent governed starts, p50 (postgres)`, value: at(0.5), unit: 'ms' },
      { name: `${CONCURRENT_STARTS} concurrent governed starts, p95 (postgres)`, value: at(0.95), unit: 'ms', target: '≤ 1000 ms', detail: `all done in ${Math.round(total)} ms; ${rolledBack} transactions rolled back; one start alone ${Math.round(alone)} ms` },
      { name: `governed start, bench process CPU per start at ${CONCURRENT_STARTS} concurrent (postgres)`, value: Math.round(cpuPerStart * 10) / 10, unit: 'ms', target: '≤ 20 ms (p95 ≤ 1 s)' },
    ];
  } finally {
    await db.close();
    await drop();
  }
}

