/**
 * The watch job's faults on worker processes (issue 37), on a THROWAWAY PostgreSQL cluster this test
 * starts on its own port (restarting it touches nobody else). A drain is caught holding runs — a lock
 * on the tool calls it reads keeps it scoring its first run — and then PostgreSQL restarts, or its
 * worker is killed. Either way every run ends scored and rolled up exactly once: after a restart the
 * same worker gives back what it held and takes it again at once; a killed worker's runs are taken
 * over by another once its hold expires (STOCKROOM_WATCH_CLAIM_MS; default 5 minutes).
 * (A slow database, held by a lock past a hold: lib/watch/watch-faults-pg.test.ts.)
 */
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { saveEvaluator } from '../db/review/evaluators';
import { pendingWatchCount } from '../db/review/run-scores';
import { saveRuns } from '../db/runs/runs-write';
import { pgClusterSkipReason } from '../db/testing/pg-cluster';
import { makeMeta, makeRun } from '../db/testing/run-fixtures';
import { startFaultRig, waitFor, type FaultRig } from './testing/faults';
import { spawnWorker, type WorkerProcess } from './testing/worker-processes';

const skip = pgClusterSkipReason();
if (skip) console.warn(`watch-faults-pg: skipped: ${skip}`);
/** Worker processes on a shared, loaded machine: generous bounds (not timing assertions). */
const TEST_LIMIT_MS = 300_000;

describe.skipIf(skip !== null)('the watch job survives the database and its workers (throwaway PostgreSQL cluster)', { timeout: TEST_LIMIT_MS }, () => {
  let rig: FaultRig;
  const workers: WorkerProcess[] = [];
  let batch = 0;

  beforeAll(async () => {
    rig = await startFaultRig();
    await saveEvaluator('acme', { name: 'loops', kind: 'loop_findings', enabled: true, config: {}, filter: {} }, 'admin', rig.db);
    await saveEvaluator('acme', { name: 'faithful', kind: 'judge', enabled: true, config: { judge: 'fake', sampleRate: 1 }, filter: {} }, 'admin', rig.db);
  }, 120_000);
  afterEach(async () => {
    await Promise.all(workers.splice(0).map((w) => w.stop()));
  }, 120_000);
  afterAll(async () => {
    await rig?.close();
  }, 120_000);

  /** N finished runs in their own UTC hour, waiting in the outbox; resolves the hour. */
  const store = async (n: number): Promise<Date> => {
    batch += 1;
    const hour = `2026-08-0${batch}T06`;
    const runs = Array.from({ length: n }, (_, i) => ({ run: makeRun({ runId: `f${batch}-${i}`, rounds: 1, startedAt: `${hour}:${String(i % 60).padStart(2, '0')}:00.000Z` }), meta: makeMeta({ tenant: 'acme' }) }));
    await saveRuns(runs, rig.db);
    return new Date(`${hour}:00:00.000Z`);
  };
  /** A session holding the tool calls: a drain that reads a run's waits, holding the runs it took. */
  const lockToolCalls = async (): Promise<pg.Client> => {
    const locker = new pg.Client({ connectionString: rig.url });
    locker.on('error', () => undefined); // cut by the restart
    await locker.connect();
    await locker.query('BEGIN');
    await locker.query('LOCK TABLE "ToolCall" IN ACCESS EXCLUSIVE MODE');
    return locker;
  };
  const held = async () => rig.db.prisma.runWatch.count({ where: { claimedBy: { not: null } } });
  const poke = () => rig.queue.enqueue('watch', {}, { key: 'watch' });
  /** Pokes the watch job every second (as the sweep and the receiver do) until no run waits. */
  const drained = async (ws: WorkerProcess[]) =>
    waitFor(
      'every run scored',
      async () => {
        await poke();
        await new Promise((r) => setTimeout(r, 900));
        return pendingWatchCount(rig.db);
      },
      (n) => n === 0,
      150_000,
    ).catch((err: unknown) => {
      throw new Error(`${String(err)}\n${ws.map((w) => w.output()).join('\n----\n')}`);
    });
  /** Each of the hour's N runs scored by both evaluators once, and counted once in every rollup table. */
  const expectOnce = async (hour: Date, n: number) => {
    const runIds = (await rig.db.prisma.run.findMany({ where: { startedAt: { gte: hour, lt: new Date(hour.getTime() + 3_600_000) } }, select: { id: true } })).map((r) => r.id);
    expect(runIds).toHaveLength(n);
    expect(await rig.db.prisma.runScore.count({ where: { runId: { in: runIds } } })).toBe(2 * n);
    const where = { tenant: 'acme', dim: 'all', hour };
    expect((await rig.db.prisma.runHour.findMany({ where })).reduce((s, r) => s + r.runs, 0)).toBe(n);
    expect((await rig.db.prisma.latencyHour.findMany({ where })).reduce((s, r) => s + r.count, 0)).toBe(n);
    expect((await rig.db.prisma.scoreHour.findMany({ where })).map((s) => [s.evaluator, s.count]).sort()).toEqual([['faithful', n], ['loops', n]]);
  };

  it.each([
    ['restarts', 2_000],
    ['is gone for 15 s', 15_000],
  ])('PostgreSQL %s while a drain holds runs: the same worker takes them again once it is back, each scored and counted once', async (_, downMs) => {
    const N = 250;
    const hour = await store(N);
    const locker = await lockToolCalls();
    const a = await spawnWorker({ databaseUrl: rig.url, concurrency: 2 });
    workers.push(a);
    await poke();
    await waitFor('a drain holding runs', held, (n) => n > 0, 120_000);
    await rig.cluster.restart(downMs);
    await locker.end().catch(() => undefined);
    // The hold is the default (5 minutes): only giving back what it held lets the worker go on at once.
    await drained([a]);
    await expectOnce(hour, N);
    expect(a.proc.exitCode).toBeNull();
  });

  it('a worker killed holding runs: another takes them over once the hold expires, each scored and counted once', async () => {
    const N = 250;
    const hour = await store(N);
    const env = { STOCKROOM_WATCH_CLAIM_MS: '3000' };
    const locker = await lockToolCalls();
    const a = await spawnWorker({ databaseUrl: rig.url, concurrency: 2, env });
    workers.push(a);
    await poke();
    await waitFor('a drain holding runs', held, (n) => n > 0, 120_000);
    const itsRuns = (await rig.db.prisma.runWatch.findMany({ where: { claimedBy: { not: null } }, select: { runId: true } })).map((r) => r.runId);
    a.kill9();
    await a.exited;
    await locker.query('ROLLBACK');
    await locker.end();
    const b = await spawnWorker({ databaseUrl: rig.url, concurrency: 2, env });
    workers.push(b);
    await drained([b]);
    await expectOnce(hour, N);
    expect(await rig.db.prisma.runScore.count({ where: { runId: { in: itsRuns } } })).toBe(2 * itsRuns.length);
  });
});
