/**
 * Stopping a worker (issue 23, part 1), with real worker processes on PostgreSQL and a live model
 * over HTTP slow enough that jobs are in flight when the signal comes. Observed: SIGTERM to
 * `npm run worker` ended npm and sh while the node worker ran on as an orphan; SIGTERM to node left
 * its job locked (and its heartbeat row gone) until graphile-worker's 4-hour lock expiry.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../../scripts/db-migrate.mjs';
import { openDatabase, type Database } from '../db/core/client';
import { createTestDatabaseUrl, testProviders } from '../db/testing/test-databases';
import type { GoldenFile } from '../eval/golden';
import { startModelServer, type ModelServer } from '../models/model-server/server';
import { queueSuite } from '../runs/suites';
import type { Dataset } from '../stockroom/dataset/types';
import { GRAPHILE_SCHEMA, GraphileQueue } from './graphile';
import { runQueueOf } from './queue';
import { bundledDataset, goldenSubset, liveConfig } from './testing/suite-fixtures';
import { alive, descendants, spawnWorker, type WorkerProcess } from './testing/worker-processes';

const pgSkip = (await testProviders()).find((p) => p.name === 'postgres')!.skipReason;
const owner = { createdBy: 'user-stop-test', tenant: 'kittiwake' };
/** Worker processes on a shared, loaded machine: generous limits (these are not timing assertions). */
const TEST_LIMIT_MS = 300_000;
/** Longer than any test here: only a worker handing its jobs back can let another take them. */
const NO_LEASE_RESCUE_MS = 3_600_000;

async function waitFor<T>(what: string, probe: () => Promise<T>, done: (v: T) => boolean, limitMs = 240_000): Promise<T> {
  const until = Date.now() + limitMs;
  for (;;) {
    const v = await probe();
    if (done(v)) return v;
    if (Date.now() > until) throw new Error(`gave up waiting for ${what} (last: ${JSON.stringify(v)})`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe.skipIf(pgSkip !== null)('stopping a worker (SIGTERM) on PostgreSQL', { timeout: TEST_LIMIT_MS }, () => {
  let url: string;
  let drop: () => Promise<void>;
  let db: Database;
  let queue: GraphileQueue;
  let dataset: Dataset;
  let dir: string;
  const servers: ModelServer[] = [];
  const workers: WorkerProcess[] = [];
  const strays: number[] = [];

  beforeAll(async () => {
    ({ url, drop } = await createTestDatabaseUrl('postgres'));
    await migrate({ url });
    db = openDatabase(url);
    queue = new GraphileQueue(url);
    dataset = bundledDataset();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stockroom-stop-'));
  });
  afterAll(async () => {
    for (const pid of strays) if (alive(pid)) process.kill(pid, 'SIGKILL');
    await Promise.all(workers.map((w) => w.stop()));
    await Promise.all(servers.map((s) => s.close()));
    await queue?.close();
    await db?.close();
    await drop?.();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  const spawn = async (o: Parameters<typeof spawnWorker>[0]) => {
    const w = await spawnWorker(o);
    workers.push(w);
    return w;
  };
  const queueEval = async (golden: GoldenFile, server: ModelServer) =>
    queueSuite({ kind: 'eval', dataset, golden, config: liveConfig(server.url), settings: ['none'], owner }, runQueueOf(queue), db);
  const storedRuns = (suiteRunId: string) => db.prisma.run.findMany({ where: { suiteRunId }, select: { setting: true, caseId: true } });
  const statusOf = async (id: string) => (await db.prisma.suiteRun.findUniqueOrThrow({ where: { id } })).status;
  const lockedJobs = (suiteRunId: string) => queue.withClient(async (c) => Number((await c.query<{ n: string }>(`SELECT count(*)::text AS n FROM ${GRAPHILE_SCHEMA}.jobs WHERE locked_by IS NOT NULL AND key LIKE $1`, [`suite-case:${suiteRunId}:%`])).rows[0]!.n));
  /** The suite's jobs still queued, running or failed (the sweep is not counted). */
  const jobsLeft = () => queue.withClient(async (c) => Number((await c.query<{ n: string }>(`SELECT count(*)::text AS n FROM ${GRAPHILE_SCHEMA}.jobs WHERE task_identifier IN ('suite', 'suite-case')`)).rows[0]!.n));
  const mine = (w: WorkerProcess, suiteRunId: string) => w.stored.filter((s) => s.startsWith(`${suiteRunId} `));

  it('SIGTERM to `npm run worker` alone: the node worker stops too (no orphan), takes no new job, finishes the running ones; a second worker does the rest, each once', async () => {
    const server = await startModelServer({ dataset, latencyMs: 300 });
    servers.push(server);
    const golden = goldenSubset(dataset, 8, path.join(dir, 'npm'));
    const a = await spawn({ databaseUrl: url, concurrency: 2, graceMs: 120_000, via: 'npm' });
    const { suiteRunId, total } = await queueEval(golden, server);
    await waitFor('a first stored case', async () => mine(a, suiteRunId).length, (n) => n >= 1);
    const below = descendants(a.proc.pid!);
    strays.push(...below);
    expect(below.length).toBeGreaterThan(0); // the tsx wrapper and node under npm
    process.kill(a.proc.pid!, 'SIGTERM'); // npm alone, as a process manager signals the process it started
    expect(await a.exited).toBe(0);
    await waitFor('every process under npm to end', async () => below.filter(alive), (left) => left.length === 0, 60_000);
    // No job started after the signal (in the order the worker printed), and every job it started was finished.
    const stopping = a.lines.findIndex((l) => / stopping \(SIGTERM\)/.test(l));
    expect(stopping).toBeGreaterThan(-1);
    expect(a.lines.slice(stopping).filter((l) => l.startsWith('started '))).toEqual([]);
    const started = a.lines.filter((l) => l.startsWith(`started ${suiteRunId} `)).map((l) => l.slice('started '.length));
    expect([...mine(a, suiteRunId)].sort()).toEqual([...started].sort());
    expect(mine(a, suiteRunId).length).toBeLessThan(total);
    expect(await statusOf(suiteRunId)).toBe('running');
    const b = await spawn({ databaseUrl: url, concurrency: 4 });
    await waitFor('the suite', () => statusOf(suiteRunId), (s) => s !== 'queued' && s !== 'running');
    expect(await statusOf(suiteRunId)).toBe('done');
    const rows = await storedRuns(suiteRunId);
    expect(rows).toHaveLength(total);
    expect(mine(a, suiteRunId).length + mine(b, suiteRunId).length).toBe(total); // each case once
    expect(new Set([...mine(a, suiteRunId), ...mine(b, suiteRunId)]).size).toBe(total);
    // The suite is done inside the last case's job; graphile-worker completes that job just after.
    const left = await waitFor('the jobs to complete', jobsLeft, (n) => n === 0, 30_000).catch(() => jobsLeft());
    expect(left, left === 0 ? '' : `${JSON.stringify((await queue.withClient((c) => c.query(`SELECT task_identifier, key, attempts, max_attempts, locked_by, last_error FROM ${GRAPHILE_SCHEMA}.jobs`))).rows)}\n${a.output()}\n${b.output()}`).toBe(0);
    await b.stop();
  });

  it('SIGTERM to node with jobs running past the grace period: they are handed back at once and another worker does each exactly once', async () => {
    const server = await startModelServer({ dataset, latencyMs: 10_000 }); // a case takes several calls: far longer than the grace, and than starting the second worker on a loaded machine
    servers.push(server);
    const golden = goldenSubset(dataset, 4, path.join(dir, 'node'));
    const a = await spawn({ databaseUrl: url, concurrency: 4, graceMs: 300, leaseMs: NO_LEASE_RESCUE_MS });
    const { suiteRunId, total } = await queueEval(golden, server);
    await waitFor('all four cases running on the first worker', () => lockedJobs(suiteRunId), (n) => n === total, 60_000).catch(async (err: unknown) => {
      const rows = await queue.withClient(async (c) => (await c.query(`SELECT task_identifier, locked_by, attempts, run_at, last_error FROM ${GRAPHILE_SCHEMA}.jobs`)).rows);
      throw new Error(`${String(err)}\n${JSON.stringify(rows)}\n${a.output()}`);
    });
    const b = await spawn({ databaseUrl: url, concurrency: 4, leaseMs: NO_LEASE_RESCUE_MS });
    // Still all four running on the first worker and none stored when the signal comes (else the test proves nothing).
    expect([await lockedJobs(suiteRunId), mine(a, suiteRunId).length]).toEqual([total, 0]);
    a.proc.kill('SIGTERM');
    expect(await a.exited).toBe(0);
    expect(alive(a.proc.pid!)).toBe(false);
    // The lease (an hour) cannot be what frees them: a generous bound far below it.
    await waitFor('the suite, finished on the second worker', () => statusOf(suiteRunId), (s) => s !== 'queued' && s !== 'running', 120_000);
    expect(await statusOf(suiteRunId)).toBe('done');
    // Every case was taken up again by the second worker, and each is stored exactly once (a store
    // the first worker had already begun when the grace ended may still commit; the second then finds it stored).
    const startedByB = b.lines.filter((l) => l.startsWith(`started ${suiteRunId} `));
    expect(new Set(startedByB).size).toBe(total);
    const rows = await storedRuns(suiteRunId);
    expect(rows).toHaveLength(total);
    expect(new Set(rows.map((r) => `${r.setting}/${r.caseId}`)).size).toBe(total);
    expect(await waitFor('the jobs to complete', jobsLeft, (n) => n === 0, 30_000)).toBe(0);
    // The stopped worker's heartbeat row is gone only after it handed its jobs back.
    expect(await db.prisma.workerHeartbeat.count()).toBe(1);
    await b.stop();
  });
});
