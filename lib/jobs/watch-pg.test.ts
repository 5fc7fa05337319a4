/**
 * The watch job on PostgreSQL with real worker processes (issue 37): the process that stores runs only
 * leaves them in the outbox and enqueues; two workers draining at once score each run and count it in
 * the rollup exactly once, and the runs' labels are not touched.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../db/core/client';
import { saveEvaluator } from '../db/review/evaluators';
import { pendingWatchCount } from '../db/review/run-scores';
import { saveRuns } from '../db/runs/runs-write';
import { makeMeta, makeRun } from '../db/testing/run-fixtures';
import { createTestDatabaseUrl, testProviders } from '../db/testing/test-databases';
import { migrate } from '../../scripts/db-migrate.mjs';
import { GraphileQueue } from './graphile';
import { spawnWorker, type WorkerProcess } from './testing/worker-processes';

const pgSkip = (await testProviders()).find((p) => p.name === 'postgres')!.skipReason;

describe.skipIf(pgSkip !== null)('the watch job (PostgreSQL, worker processes)', { timeout: 300_000 }, () => {
  let url: string;
  let drop: () => Promise<void>;
  let db: Database;
  let queue: GraphileQueue;
  const workers: WorkerProcess[] = [];
  beforeAll(async () => {
    ({ url, drop } = await createTestDatabaseUrl('postgres'));
    await migrate({ url });
    db = openDatabase(url);
    queue = new GraphileQueue(url);
  });
  afterAll(async () => {
    await Promise.all(workers.map((w) => w.stop()));
    await queue?.close();
    await db?.close();
    await drop?.();
  });

  it('scores and rolls up every finished run once, however many workers drain at once', async () => {
    await saveEvaluator('acme', { name: 'loops', kind: 'loop_findings', enabled: true, config: {}, filter: {} }, 'admin', db);
    await saveEvaluator('acme', { name: 'faithful', kind: 'judge', enabled: true, config: { judge: 'fake', sampleRate: 1 }, filter: {} }, 'admin', db);
    const N = 300;
    const hour = '2026-06-01T08';
    await saveRuns(Array.from({ length: N }, (_, i) => ({ run: makeRun({ runId: `pg-${i}`, rounds: 1, startedAt: `${hour}:${String(i % 60).padStart(2, '0')}:00.000Z` }), meta: makeMeta({ tenant: 'acme' }) })), db);
    expect(await pendingWatchCount(db)).toBe(N);
    // Nothing scored them yet: storing runs does no evaluator work.
    expect(await db.prisma.runScore.count()).toBe(0);
    for (let i = 0; i < 2; i++) workers.push(await spawnWorker({ databaseUrl: url, concurrency: 2 }));
    // Several drains at once: each poke adds a job (key mode replace beside a running one).
    for (let i = 0; i < 4; i++) await queue.enqueue('watch', {}, { key: `watch-test-${i}` });
    for (let i = 0; (await pendingWatchCount(db)) > 0; i++) {
      if (i > 1500) throw new Error(`runs still waiting: ${await pendingWatchCount(db)}\n${workers.map((w) => w.output()).join('\n')}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(await db.prisma.runScore.count()).toBe(2 * N);
    const all = await db.prisma.runHour.findMany({ where: { tenant: 'acme', dim: 'all', hour: new Date(`${hour}:00:00.000Z`) } });
    expect(all.reduce((n, r) => n + r.runs, 0)).toBe(N);
    const latency = await db.prisma.latencyHour.findMany({ where: { tenant: 'acme', dim: 'all' } });
    expect(latency.reduce((n, r) => n + r.count, 0)).toBe(N);
    const scores = await db.prisma.scoreHour.findMany({ where: { tenant: 'acme', dim: 'all' } });
    expect(scores.map((s) => [s.evaluator, s.count]).sort()).toEqual([['faithful', N], ['loops', N]]);
  });

  it('runs a backfill to its end as jobs on the workers, and the watch job takes up one whose step was lost', async () => {
    const { startBackfill, listBackfills } = await import('../db/review/evaluator-backfills');
    const { backfillJobKey } = await import('./types');
    const e = await saveEvaluator('acme', { name: 'guards', kind: 'guard_trips', enabled: true, config: {}, filter: {} }, 'admin', db);
    const window = { from: new Date('2026-06-01T00:00:00.000Z'), to: new Date('2026-06-02T00:00:00.000Z') };
    const done = async (id: string) => {
      for (let i = 0; ; i++) {
        const b = (await listBackfills('acme', 10, db)).find((x) => x.id === id)!;
        if (b.status !== 'running') return b;
        if (i > 1500) throw new Error(`backfill still running: ${JSON.stringify(b)}\n${workers.map((w) => w.output()).join('\n')}`);
        await new Promise((r) => setTimeout(r, 200));
      }
    };
    const first = await startBackfill('acme', e.id, window, 'admin', db);
    await queue.enqueue('backfill', { backfillId: first.id, step: 0 }, { key: backfillJobKey(first.id) });
    expect(await done(first.id)).toMatchObject({ status: 'done', total: 300, scanned: 300, scored: 300 });
    expect(await db.prisma.runScore.count({ where: { evaluatorId: e.id } })).toBe(300);
    // A new version's backfill whose first job was never enqueued (the server stopped in between): the watch job nudges it.
    const v2 = await saveEvaluator('acme', { name: 'guards', kind: 'guard_trips', enabled: true, config: { max: 1 }, filter: {} }, 'admin', db);
    const lost = await startBackfill('acme', v2.id, window, 'admin', db);
    await queue.enqueue('watch', {}, { key: 'watch-nudge' });
    expect(await done(lost.id)).toMatchObject({ status: 'done', scored: 300 });
    const scores = await db.prisma.scoreHour.findMany({ where: { tenant: 'acme', dim: 'all', evaluator: 'guards' } });
    expect(scores.reduce((n, s) => n + s.count, 0)).toBe(300);
  });
});
