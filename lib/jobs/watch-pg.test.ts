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
});
