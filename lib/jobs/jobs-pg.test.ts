/**
 * Suites as jobs on PostgreSQL with real worker processes (`cli/worker.ts`, what `npm run worker`
 * runs) and a live model over HTTP (the offline model server with latency, so cases overlap and a
 * worker can be killed in the middle of its runs). Issue 12's observations: a restart left suites
 * queued or running forever; a counter said cases were done while no run was stored.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../../scripts/db-migrate.mjs';
import { openDatabase, type Database } from '../db/core/client';
import { cancelSuiteRun, getSuiteProgress } from '../db/suites/suite-jobs';
import { createTestDatabaseUrl, testProviders } from '../db/testing/test-databases';
import { MATRIX_SETTINGS } from '../eval/matrix';
import type { GoldenFile } from '../eval/golden';
import { startModelServer, type ModelServer } from '../models/model-server/server';
import { queueSuite } from '../runs/suites';
import type { Dataset } from '../stockroom/dataset/types';
import { GraphileQueue } from './graphile';
import { runQueueOf } from './queue';
import { bundledDataset, goldenSubset, liveConfig } from './testing/suite-fixtures';
import { spawnWorker, type WorkerProcess } from './testing/worker-processes';

const pgSkip = (await testProviders()).find((p) => p.name === 'postgres')!.skipReason;
/** Cases in the test matrix (× 5 settings). */
const CASES = 8;
const owner = { createdBy: 'user-jobs-test', tenant: 'kittiwake' };

async function waitFor<T>(what: string, probe: () => Promise<T>, done: (v: T) => boolean, limitMs = 240_000): Promise<T> {
  const until = Date.now() + limitMs;
  for (;;) {
    const v = await probe();
    if (done(v)) return v;
    if (Date.now() > until) throw new Error(`gave up waiting for ${what} (last: ${JSON.stringify(v)})`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Worker processes on a shared, loaded machine: generous limits (these are not timing assertions). */
const TEST_LIMIT_MS = 300_000;

describe.skipIf(pgSkip !== null)('suites as jobs on PostgreSQL with worker processes', { timeout: TEST_LIMIT_MS }, () => {
  let url: string;
  let drop: () => Promise<void>;
  let db: Database;
  let queue: GraphileQueue;
  let server: ModelServer;
  let dataset: Dataset;
  let golden: GoldenFile;
  let dir: string;
  const workers: WorkerProcess[] = [];

  beforeAll(async () => {
    ({ url, drop } = await createTestDatabaseUrl('postgres'));
    await migrate({ url });
    db = openDatabase(url);
    queue = new GraphileQueue(url);
    dataset = bundledDataset();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stockroom-jobs-'));
    golden = goldenSubset(dataset, CASES, dir);
    server = await startModelServer({ dataset, latencyMs: 150 });
  });
  afterAll(async () => {
    await Promise.all(workers.map((w) => w.stop()));
    await server?.close();
    await queue?.close();
    await db?.close();
    await drop?.();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  const start = async (concurrency: number, leaseMs?: number) => {
    const w = await spawnWorker({ databaseUrl: url, concurrency, leaseMs });
    workers.push(w);
    return w;
  };
  const queueMatrix = () => queueSuite({ kind: 'matrix', dataset, golden, config: liveConfig(server.url), settings: MATRIX_SETTINGS, owner }, runQueueOf(queue), db);
  const storedRuns = (suiteRunId: string) => db.prisma.run.findMany({ where: { suiteRunId }, select: { setting: true, caseId: true } });
  const statusOf = async (id: string) => (await db.prisma.suiteRun.findUniqueOrThrow({ where: { id } })).status;
  const distinct = (rows: { setting: string; caseId: string | null }[]) => new Set(rows.map((r) => `${r.setting}/${r.caseId}`)).size;

  it('a worker started with STOCKROOM_WORKER_NICE runs at that CPU priority; a bad value is refused naming the variable', async () => {
    const w = await spawnWorker({ databaseUrl: url, concurrency: 1, env: { STOCKROOM_WORKER_NICE: '7' } });
    workers.push(w);
    // /proc/<pid>/stat: the 19th field is the nice value (fields counted after the command's closing parenthesis).
    const stat = fs.readFileSync(`/proc/${w.proc.pid}/stat`, 'utf8');
    expect(Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16])).toBe(7);
    await w.stop();
    await expect(spawnWorker({ databaseUrl: url, concurrency: 1, env: { STOCKROOM_WORKER_NICE: 'low' } })).rejects.toThrow(/STOCKROOM_WORKER_NICE must be an integer from 0 to 19; got 'low'/);
  });

  it('two workers share a matrix: every case stored once, by one of them, and the suite is done', async () => {
    const [a, b] = [await start(4), await start(4)];
    const { suiteRunId, total } = await queueMatrix();
    await waitFor('the matrix', () => statusOf(suiteRunId), (s) => s !== 'queued' && s !== 'running');
    expect(await statusOf(suiteRunId)).toBe('done');
    const rows = await storedRuns(suiteRunId);
    expect(rows).toHaveLength(total);
    expect(distinct(rows)).toBe(total);
    const mine = (w: WorkerProcess) => w.stored.filter((s) => s.startsWith(suiteRunId));
    expect(mine(a!).length).toBeGreaterThan(0);
    expect(mine(b!).length).toBeGreaterThan(0);
    expect(new Set([...mine(a!), ...mine(b!)]).size).toBe(total);
    expect(mine(a!).length + mine(b!).length).toBe(total);
    expect(await db.prisma.suiteSetting.count({ where: { suiteRunId } })).toBe(MATRIX_SETTINGS.length);
    await Promise.all([a!.stop(), b!.stop()]);
  });

  it('a worker killed (SIGKILL) mid-suite: the other finishes it, 0 runs lost, 0 stored twice, progress always what is stored', async () => {
    const [a, b] = [await start(4, 2_000), await start(4, 2_000)];
    const { suiteRunId, total } = await queueMatrix();
    await waitFor('a few stored cases', async () => a!.stored.filter((s) => s.startsWith(suiteRunId)).length, (n) => n >= 3);
    a!.kill9();
    console.log(`killed worker ${a!.proc.pid} after it stored ${a!.stored.filter((s) => s.startsWith(suiteRunId)).length} case(s)`);
    // While the survivor works, the progress shown is the stored runs (never a counter ahead of them).
    const samples: Array<[number, number]> = [];
    await waitFor(
      'the matrix after the kill',
      async () => {
        const progress = await getSuiteProgress(suiteRunId, db);
        samples.push([progress.stored, (await storedRuns(suiteRunId)).length]);
        return progress.status;
      },
      (s) => s !== 'queued' && s !== 'running',
    );
    expect(await statusOf(suiteRunId)).toBe('done');
    for (const [shown, stored] of samples) expect(shown).toBeLessThanOrEqual(stored);
    const rows = await storedRuns(suiteRunId);
    expect(rows).toHaveLength(total); // 0 lost
    expect(distinct(rows)).toBe(total); // 0 twice
    expect(b!.stored.filter((s) => s.startsWith(suiteRunId)).length).toBeGreaterThan(0);
    await b!.stop();
  });

  it('a cancelled matrix stops, keeps a consistent partial result marked cancelled, and stores nothing after the cancel', async () => {
    const w = await start(2);
    const { suiteRunId, total } = await queueMatrix();
    await waitFor('a stored case', async () => (await storedRuns(suiteRunId)).length, (n) => n >= 2);
    expect(await cancelSuiteRun(suiteRunId, db)).toBe('cancelled');
    const atCancel = (await db.prisma.suiteRun.findUniqueOrThrow({ where: { id: suiteRunId } })).completed;
    // Every remaining case job is taken and dropped (the suite is no longer active).
    await waitFor('the queue to drain', () => queue.countJobs('suite-case'), (n) => n === 0);
    expect(await statusOf(suiteRunId)).toBe('cancelled');
    const rows = await storedRuns(suiteRunId);
    expect(rows.length).toBe(atCancel);
    expect(rows.length).toBeLessThan(total);
    expect(await db.prisma.suiteCase.count({ where: { suiteRunId } })).toBe(rows.length);
    const settings = await db.prisma.suiteSetting.findMany({ where: { suiteRunId } });
    const casesInMetrics = settings.reduce((n, s) => n + (JSON.parse(s.metrics) as { cases: number }).cases, 0);
    expect(casesInMetrics).toBe(rows.length);
    await w.stop();
  });

  it('a server restart with queued work: the suite stays queued (no grace window fails it) and a worker finishes it', async () => {
    await Promise.all(workers.map((w) => w.stop()));
    const { suiteRunId, total } = await queueMatrix(); // no worker running: the web server only enqueued
    // Restarted long after the suite was last touched (the old boot check failed such suites).
    await db.prisma.suiteRun.update({ where: { id: suiteRunId }, data: { updatedAt: new Date(Date.now() - 3_600_000) } });
    const saved = process.env.DATABASE_URL;
    process.env.DATABASE_URL = url;
    try {
      const { registerNode } = await import('../../instrumentation-node');
      await registerNode();
    } finally {
      process.env.DATABASE_URL = saved;
    }
    expect(await statusOf(suiteRunId)).toBe('queued');
    // What the matrix page and the CLI read: no worker is alive to take it (the stopped ones said goodbye).
    expect((await getSuiteProgress(suiteRunId, db)).workers).toEqual({ backend: 'workers', online: 0, slots: 0 });
    const w = await start(8);
    await waitFor('the worker to beat', async () => (await getSuiteProgress(suiteRunId, db)).workers, (p) => p.backend === 'workers' && p.online === 1);
    expect((await getSuiteProgress(suiteRunId, db)).workers).toEqual({ backend: 'workers', online: 1, slots: 8 });
    await waitFor('the matrix', () => statusOf(suiteRunId), (s) => s !== 'queued' && s !== 'running');
    expect(await statusOf(suiteRunId)).toBe('done');
    expect(distinct(await storedRuns(suiteRunId))).toBe(total);
    await w.stop();
  });
});
