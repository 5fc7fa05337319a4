/**
 * `npm run bench -- --only jobs`: suites as jobs on PostgreSQL with real worker processes and a live
 * model over HTTP (the offline model server, `--latency-ms` 200 by default). A matrix of
 * STOCKROOM_BENCH_JOBS_CASES cases × 5 settings (default 50 → 250 runs) with 1 worker × 1 concurrent
 * run (on STOCKROOM_BENCH_JOBS_SERIAL_CASES cases, default all), 1 × 16 and 2 × 16: runs per second
 * of warmed workers and the ratios, each matrix timed from queued to finished as stored (the first
 * matrix of freshly started workers is printed beside them); then `kill -9` of one of two workers
 * mid-matrix (runs lost, runs stored twice); with a production build (.next), the /runs page's p95
 * while a matrix runs. Measures, never asserts. PostgreSQL: STOCKROOM_TEST_PG (default 127.0.0.1:5432).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { migrate } from '../scripts/db-migrate.mjs';
import { openDatabase, type Database } from '../lib/db/core/client';
import { createTestDatabaseUrl } from '../lib/db/testing/test-databases';
import { MATRIX_SETTINGS } from '../lib/eval/matrix';
import { startModelServer } from '../lib/models/model-server/server';
import { GraphileQueue } from '../lib/jobs/graphile';
import { runQueueOf } from '../lib/jobs/queue';
import { bundledDataset, goldenSubset, liveConfig } from '../lib/jobs/testing/suite-fixtures';
import { spawnWorker, type WorkerProcess } from '../lib/jobs/testing/worker-processes';
import { queueSuite } from '../lib/runs/suites';
import { upsertUser } from '../lib/auth/users';
import { percentile, round, type Figure } from './stats';

const PORT = 3389;
const BASE = `http://127.0.0.1:${PORT}`;
const owner = { createdBy: 'bench', tenant: 'kittiwake' };

function envInt(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a positive integer (got '${raw}')`);
  return n;
}

/** CPU the worker processes have used so far (user + system, ms; NaN where /proc is not readable). */
function workerCpuMs(workers: readonly WorkerProcess[]): number {
  let ticks = 0;
  for (const w of workers) {
    try {
      const stat = fs.readFileSync(`/proc/${w.proc.pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]); // utime, stime (fields 14 and 15 of the line)
    } catch {
      return Number.NaN;
    }
  }
  return (ticks * 1000) / CLOCK_TICKS_PER_SECOND;
}

/** Linux's USER_HZ for /proc/<pid>/stat times (sysconf(_SC_CLK_TCK), 100 on every mainstream kernel). */
const CLOCK_TICKS_PER_SECOND = 100;

async function until(probe: () => Promise<boolean>, what: string, limitMs = 3_600_000): Promise<void> {
  const end = Date.now() + limitMs;
  while (!(await probe())) {
    if (Date.now() > end) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const finished = async (db: Database, id: string) => {
  const s = (await db.prisma.suiteRun.findUniqueOrThrow({ where: { id }, select: { status: true } })).status;
  if (s === 'failed') throw new Error(`suite ${id} failed`);
  return s !== 'queued' && s !== 'running';
};

export async function benchJobs(): Promise<Figure[]> {
  const cases = envInt('STOCKROOM_BENCH_JOBS_CASES', 50);
  const latencyMs = envInt('STOCKROOM_BENCH_JOBS_LATENCY_MS', 200);
  const { url, drop } = await createTestDatabaseUrl('postgres');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stockroom-bench-jobs-'));
  await migrate({ url });
  const db = openDatabase(url);
  const queue = new GraphileQueue(url);
  const dataset = bundledDataset();
  const golden = goldenSubset(dataset, cases, dir);
  // The serial pass (1 × 1) measures its rate on fewer cases: at one run at a time a full matrix
  // would take most of the bench; a rate is a rate.
  const serialCases = Math.min(cases, envInt('STOCKROOM_BENCH_JOBS_SERIAL_CASES', cases));
  const serialGolden = goldenSubset(dataset, serialCases, path.join(dir, 'serial'));
  const warmGolden = goldenSubset(dataset, 1, path.join(dir, 'warm'));
  const model = await startModelServer({ dataset, latencyMs });
  const config = liveConfig(model.url);
  const workers: WorkerProcess[] = [];
  let server: ChildProcess | null = null;
  const figures: Figure[] = [];
  const matrix = (g = golden) => queueSuite({ kind: 'matrix', dataset, golden: g, config, settings: MATRIX_SETTINGS, owner }, runQueueOf(queue), db);
  // A matrix's time is its own, as stored: from queued (createdAt) to finished (finishedAt).
  const timedMatrix = async (g: typeof golden) => {
    const { suiteRunId, total } = await matrix(g);
    await until(() => finished(db, suiteRunId), `the matrix ${suiteRunId}`);
    const suite = await db.prisma.suiteRun.findUniqueOrThrow({ where: { id: suiteRunId }, select: { createdAt: true, finishedAt: true } });
    const seconds = (suite.finishedAt!.getTime() - suite.createdAt.getTime()) / 1000;
    const stored = await db.prisma.run.count({ where: { suiteRunId } });
    return { total, seconds, stored, rate: stored / seconds };
  };
  try {
    const rates: Record<string, number> = {};
    for (const [n, c] of [
      [1, 1],
      [1, 16],
      [2, 16],
    ] as const) {
      const started = await Promise.all(Array.from({ length: n }, () => spawnWorker({ databaseUrl: url, concurrency: c })));
      workers.push(...started);
      // The ratios compare warmed workers, as deployed workers are long-lived: a fresh worker's
      // first cases also pay for V8 compiling the harness and for new database backends. The first
      // matrix after the workers start is printed too (at 1 × 1 a one-case matrix warms instead).
      if (c === 1) await timedMatrix(warmGolden);
      else {
        const cold = await timedMatrix(golden);
        figures.push({ name: `matrix ${cold.total} runs, ${n} worker(s) × ${c}, first after start`, value: round(cold.rate, 2), unit: 'runs/s', detail: `${round(cold.seconds, 1)} s` });
      }
      const cpuBefore = workerCpuMs(started);
      const warm = await timedMatrix(c === 1 ? serialGolden : golden);
      const cpu = workerCpuMs(started) - cpuBefore;
      rates[`${n}x${c}`] = warm.rate;
      figures.push({ name: `matrix ${warm.total} runs, ${n} worker(s) × ${c} concurrent`, value: round(warm.rate, 2), unit: 'runs/s', detail: `${round(warm.seconds, 1)} s, model latency ${latencyMs} ms` });
      // The workers' own CPU (user + system, from /proc) over the warm matrix, per run it stored.
      if (Number.isFinite(cpu)) figures.push({ name: `worker CPU per stored run, ${n} worker(s) × ${c}`, value: round(cpu / warm.stored, 1), unit: 'ms', target: '≤ 10 ms' });
      await Promise.all(started.map((w) => w.stop()));
    }
    figures.push({ name: '1×16 against 1×1', value: round(rates['1x16']! / rates['1x1']!, 2), unit: '×', target: '≥ 12×' });
    figures.push({ name: '2×16 against 1×16', value: round(rates['2x16']! / rates['1x16']!, 2), unit: '×', target: '≥ 1.8×' });

    // kill -9 of one of two workers mid-matrix.
    const [a, b] = await Promise.all([spawnWorker({ databaseUrl: url, concurrency: 16, leaseMs: 5_000 }), spawnWorker({ databaseUrl: url, concurrency: 16, leaseMs: 5_000 })]);
    workers.push(a, b);
    const { suiteRunId, total } = await matrix();
    await until(async () => (await db.prisma.run.count({ where: { suiteRunId } })) >= Math.floor(total / 3), 'a third of the matrix');
    a.kill9();
    await until(() => finished(db, suiteRunId), 'the matrix after kill -9');
    const rows = await db.prisma.run.findMany({ where: { suiteRunId }, select: { setting: true, caseId: true } });
    const distinct = new Set(rows.map((r) => `${r.setting}/${r.caseId}`)).size;
    figures.push({ name: `kill -9 of 1 of 2 workers mid-matrix: runs lost`, value: total - distinct, unit: 'runs', target: '0' });
    figures.push({ name: `kill -9 of 1 of 2 workers mid-matrix: runs stored twice`, value: rows.length - distinct, unit: 'runs', target: '0' });
    await b.stop();

    // /runs page p95, idle and while a 2×16 matrix runs (needs a production build).
    if (fs.existsSync('.next/BUILD_ID')) {
      const EMAIL = 'bench-viewer@example.com';
      const PASSWORD = 'bench-password-0123456789';
      await upsertUser(db, { email: EMAIL, password: PASSWORD, roles: ['viewer'] });
      server = spawn(process.execPath, ['node_modules/next/dist/bin/next', 'start', '-H', '127.0.0.1', '-p', String(PORT)], {
        env: { ...process.env, DATABASE_URL: url, BETTER_AUTH_SECRET: 'bench-secret-0123456789-0123456789-abcdef', BETTER_AUTH_URL: BASE, NODE_ENV: 'production' },
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      await until(async () => fetch(`${BASE}/sign-in`, { redirect: 'manual' }).then((r) => r.status < 500).catch(() => false), 'the server', 300_000);
      const r = await fetch(`${BASE}/api/auth/sign-in/email`, { method: 'POST', headers: { 'content-type': 'application/json', origin: BASE }, body: JSON.stringify({ email: EMAIL, password: PASSWORD }) });
      const cookie = r.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
      const sample = async (n: number) => {
        const ms: number[] = [];
        for (let i = 0; i < n; i++) {
          const t0 = performance.now();
          const res = await fetch(`${BASE}/runs`, { headers: { cookie }, redirect: 'manual' });
          await res.arrayBuffer();
          if (res.status !== 200) throw new Error(`GET /runs answered ${res.status}`);
          ms.push(performance.now() - t0);
        }
        return ms;
      };
      await sample(3);
      const idle = await sample(30);
      figures.push({ name: '/runs p95, idle (PostgreSQL)', value: round(percentile(idle, 95), 1), unit: 'ms', target: '≤ 150 ms' });
      // Workers as deployed beside the web server (docs/guides/deploying.md: STOCKROOM_WORKER_NICE=10), and at the default priority.
      for (const nice of ['10', '0']) {
        const busy = await Promise.all([0, 1].map(() => spawnWorker({ databaseUrl: url, concurrency: 16, env: { STOCKROOM_WORKER_NICE: nice } })));
        workers.push(...busy);
        const { suiteRunId: id } = await matrix();
        const during: number[] = [];
        while (!(await finished(db, id))) during.push(...(await sample(5)));
        figures.push({ name: `/runs p95 while a 2×16 matrix runs, workers at nice ${nice}`, value: round(percentile(during, 95), 1), unit: 'ms', ...(nice === '10' ? { target: '≤ 150 ms' } : {}), detail: `${during.length} GETs` });
        await Promise.all(busy.map((w) => w.stop()));
      }
    } else {
      figures.push({ name: '/runs p95 while a matrix runs: skipped (no production build; npm run build)', value: 0, unit: '' });
    }
    return figures;
  } finally {
    server?.kill('SIGTERM');
    await Promise.all(workers.map((w) => w.stop()));
    await model.close();
    await queue.close();
    await db.close();
    await drop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
