/**
 * The watch job's drains against a slow PostgreSQL (issue 37): a lock another session holds makes a
 * drain wait, past its claim's expiry or in the middle of adding to the rollup. Whatever waits and
 * whoever takes over, every run is scored and counted once, and no drain fails for the wait.
 * (Restarts and a worker killed holding claims: lib/jobs/watch-faults-pg.test.ts, on worker processes.)
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/core/client';
import { saveEvaluator } from '../db/review/evaluators';
import { applyRollup, type RollupDeltas } from '../db/review/rollup';
import { pendingWatchCount } from '../db/review/run-scores';
import { saveRuns } from '../db/runs/runs-write';
import { makeMeta, makeRun } from '../db/testing/run-fixtures';
import { testProviders, type TestDatabase } from '../db/testing/test-databases';
import { watchPendingRuns } from './watch-runs';

const postgres = (await testProviders()).find((p) => p.name === 'postgres')!;

/**
 * Backends of database `name` waiting on a lock, polled until there are `n` (a bound, not a timing
 * assertion). On a client of its own: inside a transaction pg_stat_activity is read once and kept.
 */
async function waitingOnLocks(url: string, n: number): Promise<number[]> {
  const name = new URL(url).pathname.slice(1);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await poll(client, name, n);
  } finally {
    await client.end();
  }
}

async function poll(client: pg.Client, name: string, n: number): Promise<number[]> {
  for (let i = 0; i < 200; i++) {
    const { rows } = await client.query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE datname = $1 AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()`, [name]);
    if (rows.length >= n) return rows.map((r) => r.pid);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  const { rows } = await client.query(`SELECT pid, state, wait_event_type, wait_event, left(query, 300) q FROM pg_stat_activity WHERE datname = $1`, [name]);
  throw new Error(`fewer than ${n} sessions ever waited on a lock: ${JSON.stringify(rows)}`);
}

const hour = (h: number) => new Date(Date.UTC(2026, 6, 1, h));
/** One run's part of the hourly rollup: under `all` and under its model, in hour `h`. */
const deltasOf = (h: number, model: string): RollupDeltas => {
  const base = { tenant: 'acme', hour: hour(h), termination: 'COMPLETED', runs: 1, inputTokens: 10, outputTokens: 1, unreportedCalls: 0, costUsd: 0.5, costUnknownRuns: 0, guardrailFindings: 0 };
  return { hours: [{ ...base, dim: 'all', value: '' }, { ...base, dim: 'model', value: model }], latency: [], scores: [] };
};
const concat = (...ds: RollupDeltas[]): RollupDeltas => ({ hours: ds.flatMap((d) => d.hours), latency: ds.flatMap((d) => d.latency), scores: ds.flatMap((d) => d.scores) });

describe.skipIf(postgres.skipReason !== null)('watch drains against a slow PostgreSQL', { timeout: 120_000 }, () => {
  let t: TestDatabase;
  let db: Database;
  beforeAll(async () => {
    t = await postgres.create();
    db = t.db;
  });
  afterAll(async () => {
    await t?.drop();
  });

  const inTx = (deltas: RollupDeltas) => db.prisma.$transaction(async (tx) => applyRollup({ ...db, prisma: tx as unknown as Database['prisma'] }, deltas), { timeout: 60_000, maxWait: 60_000 });

  it('two drains adding to the same hours in opposite orders while a lock holds them up both commit: no deadlock, each counted once', async () => {
    // The rows exist (earlier runs), so a session can hold them.
    await inTx(concat(deltasOf(8, 'm-a'), deltasOf(9, 'm-b')));
    const locker = new pg.Client({ connectionString: t.url });
    await locker.connect();
    try {
      await locker.query('BEGIN');
      // Held: the second row each drain reaches, after each took its first hour's `all` row.
      await locker.query(`SELECT 1 FROM "RunHour" WHERE "dim" = 'model' AND (("hour" = $1 AND "value" = 'm-a') OR ("hour" = $2 AND "value" = 'm-b')) FOR UPDATE`, [hour(8), hour(9)]);
      const a = inTx(concat(deltasOf(8, 'm-a'), deltasOf(9, 'm-a')));
      const b = inTx(concat(deltasOf(9, 'm-b'), deltasOf(8, 'm-b')));
      a.catch(() => undefined);
      b.catch(() => undefined);
      await waitingOnLocks(t.url, 2);
      await locker.query('ROLLBACK');
      await expect(Promise.all([a, b])).resolves.toBeDefined();
    } finally {
      await locker.end();
    }
    const rows = await db.prisma.runHour.findMany({ where: { tenant: 'acme', dim: 'all' }, orderBy: { hour: 'asc' } });
    expect(rows.map((r) => [r.hour.toISOString(), r.runs])).toEqual([[hour(8).toISOString(), 3], [hour(9).toISOString(), 3]]);
  });

  it('a drain held up past its hold is taken over: both go on once the lock goes, and each run is scored and counted once', async () => {
    await saveEvaluator('acme', { name: 'loops', kind: 'loop_findings', enabled: true, config: {}, filter: {} }, 'admin', db);
    await saveEvaluator('acme', { name: 'faithful', kind: 'judge', enabled: true, config: { judge: 'fake', sampleRate: 1 }, filter: {} }, 'admin', db);
    const N = 150;
    const at = '2026-07-02T10';
    await saveRuns(Array.from({ length: N }, (_, i) => ({ run: makeRun({ runId: `slow-${i}`, rounds: 1, startedAt: `${at}:${String(i % 60).padStart(2, '0')}:00.000Z` }), meta: makeMeta({ tenant: 'acme' }) })), db);
    const locker = new pg.Client({ connectionString: t.url });
    await locker.connect();
    let first: Promise<unknown>;
    let second: Promise<unknown>;
    try {
      // Reading a run's tool calls waits: the first drain holds its batch, scoring its first run.
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE "ToolCall" IN ACCESS EXCLUSIVE MODE');
      first = watchPendingRuns({ db, claimMs: 1_000 });
      first.catch(() => undefined);
      await waitingOnLocks(t.url, 1);
      const held = await db.prisma.runWatch.findMany({ where: { claimedBy: { not: null } } });
      expect(held.length).toBeGreaterThan(0);
      // Past its hold, a second drain takes the same runs over (the oldest are waiting again) and waits on the same lock.
      const expiry = Math.max(...held.map((h) => h.claimedUntil!.getTime()));
      await new Promise((r) => setTimeout(r, Math.max(0, expiry - Date.now()) + 50));
      second = watchPendingRuns({ db, claimMs: 60_000 });
      second.catch(() => undefined);
      await waitingOnLocks(t.url, 2);
      const takenOver = await db.prisma.runWatch.count({ where: { runId: { in: held.map((h) => h.runId) }, claimedBy: { notIn: held.map((h) => h.claimedBy!) } } });
      expect(takenOver).toBe(held.length);
      await locker.query('ROLLBACK');
    } finally {
      await locker.end();
    }
    await Promise.all([first, second]);
    await watchPendingRuns({ db });
    expect(await pendingWatchCount(db)).toBe(0);
    const scores = await db.prisma.runScore.findMany({ where: { tenant: 'acme' }, select: { runId: true, evaluatorName: true } });
    expect(scores).toHaveLength(2 * N);
    const hour = await db.prisma.runHour.findMany({ where: { tenant: 'acme', dim: 'all', hour: new Date(`${at}:00:00.000Z`) } });
    expect(hour.reduce((n, r) => n + r.runs, 0)).toBe(N);
    const latency = await db.prisma.latencyHour.findMany({ where: { tenant: 'acme', dim: 'all', hour: new Date(`${at}:00:00.000Z`) } });
    expect(latency.reduce((n, r) => n + r.count, 0)).toBe(N);
    const byEvaluator = await db.prisma.scoreHour.findMany({ where: { tenant: 'acme', dim: 'all', hour: new Date(`${at}:00:00.000Z`) } });
    expect(byEvaluator.map((s) => [s.evaluator, s.count]).sort()).toEqual([['faithful', N], ['loops', N]]);
  });
});
