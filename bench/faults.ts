/**
 * `npm run bench -- --only faults`: workers through database faults, on a throwaway PostgreSQL
 * cluster the bench starts on its own port (lib/jobs/testing/pg-cluster.ts), with real worker
 * processes and the offline model server (150 ms a call). For a restart (PostgreSQL stopped for 2 s
 * mid-suite) and, where network namespaces are permitted, a network cut (the worker's link down
 * 20 s): seconds from the database back to the first case stored after it, cases lost and stored
 * twice. Measures, never asserts. STOCKROOM_BENCH_FAULT_CASES: cases per suite (default 48).
 */
import type { ModelServer } from '../lib/models/model-server/server';
import { startModelServer } from '../lib/models/model-server/server';
import { startFaultRig, waitFor, type FaultRig } from '../lib/jobs/testing/faults';
import { createNetnsPair, netnsSkipReason, spawnModelServerIn } from '../lib/jobs/testing/netns';
import { pgClusterSkipReason } from '../lib/db/testing/pg-cluster';
import { spawnWorker, type WorkerProcess } from '../lib/jobs/testing/worker-processes';
import { round, type Figure } from './stats';

const CONCURRENCY = 8;
const LATENCY_MS = 150;

function cases(): number {
  const raw = process.env.STOCKROOM_BENCH_FAULT_CASES;
  const n = raw ? Number(raw) : 48;
  if (!Number.isInteger(n) || n < 8) throw new Error(`STOCKROOM_BENCH_FAULT_CASES must be an integer ≥ 8 (got '${raw}')`);
  return n;
}

/** Runs a suite on one worker, applies `fault` once a few cases are stored, and measures the recovery. */
async function measure(rig: FaultRig, worker: WorkerProcess, server: Pick<ModelServer, 'url'>, fault: () => Promise<void>): Promise<{ backToStoredS: number; lost: number; twice: number }> {
  const { suiteRunId, total } = await rig.queueEval(rig.golden(cases()), server as ModelServer);
  const mine = () => worker.stored.filter((s) => s.startsWith(`${suiteRunId} `)).length;
  await waitFor('a few stored cases', async () => mine(), (n) => n >= 3, 180_000);
  await fault();
  const back = Date.now();
  const storedAtBack = mine();
  await waitFor('a case stored after the database is back', async () => mine(), (n) => n > storedAtBack, 180_000).catch((err: unknown) => {
    throw new Error(`${String(err)}\n${worker.output().slice(-6000)}`);
  });
  const backToStoredS = (Date.now() - back) / 1000;
  await waitFor('the suite', () => rig.statusOf(suiteRunId), (s) => s !== 'queued' && s !== 'running', 300_000);
  const rows = await rig.storedRows(suiteRunId);
  return { backToStoredS, lost: total - new Set(rows).size, twice: rows.length - new Set(rows).size };
}

const figures = (label: string, r: { backToStoredS: number; lost: number; twice: number }): Figure[] => [
  { name: `${label}: database back → first stored case`, value: round(r.backToStoredS, 1), unit: 's', target: '≤ 10' },
  { name: `${label}: cases lost`, value: r.lost, unit: 'cases', target: '0' },
  { name: `${label}: cases stored twice`, value: r.twice, unit: 'cases', target: '0' },
];

export async function benchFaults(): Promise<Figure[]> {
  const skip = pgClusterSkipReason();
  if (skip) {
    process.stderr.write(`bench faults: skipped: ${skip}\n`);
    return [];
  }
  const out: Figure[] = [];
  {
    const rig = await startFaultRig();
    const server = await startModelServer({ dataset: rig.dataset, latencyMs: LATENCY_MS });
    const worker = await spawnWorker({ databaseUrl: rig.url, concurrency: CONCURRENCY });
    try {
      out.push(...figures('PostgreSQL restart (2 s down)', await measure(rig, worker, server, () => rig.cluster.restart(2_000))));
    } finally {
      await worker.stop();
      await server.close();
      await rig.close();
    }
  }
  const netSkip = netnsSkipReason();
  if (netSkip) {
    process.stderr.write(`bench faults: network cut skipped: ${netSkip}\n`);
    return out;
  }
  const pair = createNetnsPair('b');
  const rig = await startFaultRig({ extraListen: [pair.hostIp] });
  const model = await spawnModelServerIn(pair, rig.dataset.dir, LATENCY_MS);
  const worker = await spawnWorker({ databaseUrl: rig.cluster.url('stockroom', pair.hostIp), concurrency: CONCURRENCY, wrap: pair.exec });
  try {
    const cut = async () => {
      pair.down();
      await new Promise((r) => setTimeout(r, 20_000));
      pair.up();
    };
    out.push(...figures('network cut (link down 20 s)', await measure(rig, worker, model, cut)));
  } finally {
    pair.up();
    await worker.stop();
    model.proc.kill('SIGTERM');
    await rig.close();
    pair.destroy();
  }
  return out;
}
