/**
 * Backfills (issue 37) on both databases: an evaluator defined after runs were stored is run over the
 * runs of a chosen window, a chunk at a time, each run scored once per evaluator version however often
 * it is asked, its score counted once in the hourly rollup (a newer version's score replacing the
 * older one's there), with progress, cancel, and the evaluator changing under it said.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/core/client';
import { cancelBackfill, claimBackfill, listBackfills, startBackfill, storeBackfillChunk } from '../db/review/evaluator-backfills';
import { listEvaluators, removeEvaluator, saveEvaluator } from '../db/review/evaluators';
import { rollupRows } from '../db/review/rollup';
import { pendingWatchCount } from '../db/review/run-scores';
import { replaceRun, saveRuns } from '../db/runs/runs-write';
import { makeMeta, makeRun } from '../db/testing/run-fixtures';
import { testProviders, type TestDatabase } from '../db/testing/test-databases';
import { sampledRun } from '../eval';
import { BACKFILL_CHUNK, runBackfillStep } from './backfill';
import { watchPendingRuns } from './watch-runs';

const providers = await testProviders();

describe.each(providers)('evaluator backfills on $name', (provider) => {
  let t: TestDatabase;
  let db: Database;
  const test = provider.skipReason ? it.skip : it;
  beforeAll(async () => {
    if (provider.skipReason) return;
    t = await provider.create();
    db = t.db;
  });
  afterAll(async () => {
    await t?.drop();
  });

  let day = 0;
  /** `n` finished runs of `tenant` spread over one hour of a fresh day, stored and drained (rolled up) before any evaluator of the test exists. */
  const stored = async (tenant: string, n: number, tags: string[] = []) => {
    day += 1;
    const at = `2026-02-${String(day).padStart(2, '0')}T07`;
    const ids = await saveRuns(Array.from({ length: n }, (_, i) => ({ run: makeRun({ runId: `b${day}-${i}`, rounds: 1, startedAt: `${at}:${String(i % 60).padStart(2, '0')}:00.000Z` }), meta: { ...makeMeta({ tenant }), tags } })), db);
    await watchPendingRuns({ db });
    return { ids, hour: new Date(`${at}:00:00.000Z`), window: { from: new Date(`${at}:00:00.000Z`), to: new Date(`${at}:59:59.999Z`) } };
  };
  const clear = async (tenant: string) => {
    for (const e of await listEvaluators(tenant, db)) await removeEvaluator(tenant, e.id, db);
  };
  const runAll = async (id: string) => {
    for (let i = 0; i < 100 && (await runBackfillStep(id, { db })) === 'more'; i++);
  };
  const scoreCount = async (hour: Date, tenant: string, evaluator: string) =>
    (await rollupRows({ tenant, dim: 'all', from: hour, to: new Date(hour.getTime() + 3_600_000) }, db)).scores.filter((s) => s.evaluator === evaluator).reduce((n, s) => n + s.count, 0);

  test('scores each run of the window once, counts it once in the rollup, and says how far it got; a second backfill of the version adds nothing', async () => {
    await clear('acme');
    const inside = await stored('acme', BACKFILL_CHUNK + 30);
    const outside = await stored('acme', 5);
    await stored('other', 5);
    const e = await saveEvaluator('acme', { name: 'loops', kind: 'loop_findings', enabled: true, config: {}, filter: {} }, 'admin', db);
    const b = await startBackfill('acme', e.id, inside.window, 'admin', db);
    expect(await runBackfillStep(b.id, { db, chunks: 1 })).toBe('more');
    expect((await listBackfills('acme', 5, db))[0]).toMatchObject({ id: b.id, status: 'running', total: BACKFILL_CHUNK + 30, scanned: BACKFILL_CHUNK, scored: BACKFILL_CHUNK });
    await runAll(b.id);
    expect((await listBackfills('acme', 5, db))[0]).toMatchObject({ status: 'done', total: BACKFILL_CHUNK + 30, scanned: BACKFILL_CHUNK + 30, scored: BACKFILL_CHUNK + 30, skipped: 0, queued: 0 });
    expect(await db.prisma.runScore.count({ where: { evaluatorId: e.id, runId: { in: inside.ids } } })).toBe(BACKFILL_CHUNK + 30);
    expect(await db.prisma.runScore.count({ where: { evaluatorId: e.id, runId: { in: outside.ids } } })).toBe(0);
    expect(await scoreCount(inside.hour, 'acme', 'loops')).toBe(BACKFILL_CHUNK + 30);
    expect(await scoreCount(outside.hour, 'acme', 'loops')).toBe(0);
    expect(await listBackfills('other', 5, db)).toEqual([]);
    // Again, the same version: every run skipped, nothing stored or counted twice.
    const again = await startBackfill('acme', e.id, inside.window, 'admin', db);
    await runAll(again.id);
    expect((await listBackfills('acme', 5, db))[0]).toMatchObject({ id: again.id, status: 'done', scored: 0, skipped: BACKFILL_CHUNK + 30 });
    expect(await db.prisma.runScore.count({ where: { evaluatorId: e.id } })).toBe(BACKFILL_CHUNK + 30);
    expect(await scoreCount(inside.hour, 'acme', 'loops')).toBe(BACKFILL_CHUNK + 30);
  });

  test("a new version's backfill scores every run again under it, and its score replaces the older one's in the rollup", async () => {
    await clear('acme');
    const w = await stored('acme', 10);
    const v1 = await saveEvaluator('acme', { name: 'fast', kind: 'latency', enabled: true, config: { max: 100_000 }, filter: {} }, 'admin', db);
    await runAll((await startBackfill('acme', v1.id, w.window, 'admin', db)).id);
    const mean = async () => {
      const rows = (await rollupRows({ tenant: 'acme', dim: 'all', from: w.hour, to: new Date(w.hour.getTime() + 3_600_000) }, db)).scores.filter((s) => s.evaluator === 'fast');
      return { count: rows.reduce((n, s) => n + s.count, 0), mean: rows.reduce((n, s) => n + s.sum, 0) / rows.reduce((n, s) => n + s.count, 0) };
    };
    expect(await mean()).toEqual({ count: 10, mean: 1 });
    const v2 = await saveEvaluator('acme', { name: 'fast', kind: 'latency', enabled: true, config: { max: 1 }, filter: {} }, 'admin', db);
    await runAll((await startBackfill('acme', v2.id, w.window, 'admin', db)).id);
    expect(await db.prisma.runScore.groupBy({ by: ['evaluatorVersion'], where: { evaluatorId: v1.id }, _count: true })).toEqual(
      expect.arrayContaining([{ evaluatorVersion: 1, _count: 10 }, { evaluatorVersion: 2, _count: 10 }]),
    );
    expect(await mean()).toEqual({ count: 10, mean: 0 });
  });

  test('cancelled, it stores nothing more; the evaluator changed under it ends it saying so; another tenant’s evaluator is not found', async () => {
    await clear('acme');
    const w = await stored('acme', BACKFILL_CHUNK + 10);
    const e = await saveEvaluator('acme', { name: 'calls', kind: 'invalid_call_rate', enabled: true, config: {}, filter: {} }, 'admin', db);
    const b = await startBackfill('acme', e.id, w.window, 'admin', db);
    await expect(startBackfill('acme', e.id, w.window, 'admin', db)).rejects.toMatchObject({ field: 'evaluatorId' });
    await expect(startBackfill('other', e.id, w.window, 'admin', db)).rejects.toMatchObject({ code: 'not_found' });
    expect(await runBackfillStep(b.id, { db, chunks: 1 })).toBe('more');
    expect(await cancelBackfill('other', b.id, db)).toBe(false);
    expect(await cancelBackfill('acme', b.id, db)).toBe(true);
    expect(await runBackfillStep(b.id, { db })).toBe('busy');
    expect((await listBackfills('acme', 5, db))[0]).toMatchObject({ status: 'cancelled', scored: BACKFILL_CHUNK });
    expect(await db.prisma.runScore.count({ where: { evaluatorId: e.id } })).toBe(BACKFILL_CHUNK);
    // A new version saved while a backfill of the old one runs: its next step ends it, naming the version.
    const next = await startBackfill('acme', e.id, w.window, 'admin', db);
    await saveEvaluator('acme', { name: 'calls', kind: 'invalid_call_rate', enabled: true, config: { max: 1 }, filter: {} }, 'admin', db);
    expect(await runBackfillStep(next.id, { db })).toBe('ended');
    expect((await listBackfills('acme', 5, db))[0]).toMatchObject({ id: next.id, status: 'failed', error: expect.stringContaining('newer version (v2)') });
  });

  test('takes only the runs its filter takes, honours a judge’s sample, and hands runs never rolled up to the watch job', async () => {
    await clear('acme');
    const tagged = await stored('acme', 20, ['eu']);
    const plain = await saveRuns([{ run: makeRun({ runId: 'b-plain', startedAt: tagged.hour.toISOString() }), meta: makeMeta({ tenant: 'acme' }) }], db);
    // Stored before the watch job existed: no outbox row, never rolled up.
    const old = await saveRuns([{ run: makeRun({ runId: 'b-old', startedAt: tagged.hour.toISOString() }), meta: { ...makeMeta({ tenant: 'acme' }), tags: ['eu'] } }], db);
    await db.prisma.runWatch.deleteMany({ where: { runId: old[0]! } });
    await watchPendingRuns({ db });
    const judge = await saveEvaluator('acme', { name: 'eu-judge', kind: 'judge', enabled: true, config: { judge: 'fake', sampleRate: 0.5 }, filter: { tag: 'eu' } }, 'admin', db);
    const b = await startBackfill('acme', judge.id, tagged.window, 'admin', db);
    await runAll(b.id);
    const sampled = tagged.ids.filter((id) => sampledRun(id, judge.id, 0.5));
    expect((await listBackfills('acme', 5, db))[0]).toMatchObject({ status: 'done', total: 21, scanned: 21, scored: sampled.length, queued: 1, skipped: 20 - sampled.length });
    expect((await db.prisma.runScore.findMany({ where: { evaluatorId: judge.id }, select: { runId: true } })).map((s) => s.runId).sort()).toEqual([...sampled].sort());
    expect(await db.prisma.runScore.count({ where: { runId: plain[0]! } })).toBe(0);
    // The old run went to the watch, which scores it (if sampled) and rolls it up once.
    expect(await pendingWatchCount(db)).toBe(1);
    await watchPendingRuns({ db });
    expect(await db.prisma.runRolled.count({ where: { runId: old[0]! } })).toBe(1);
  });

  test('a step that lost its hold stores nothing; a drain re-scoring runs at the same time counts each once', async () => {
    await clear('acme');
    const w = await stored('acme', 30);
    const e = await saveEvaluator('acme', { name: 'guards', kind: 'guard_trips', enabled: true, config: {}, filter: {} }, 'admin', db);
    const b = await startBackfill('acme', e.id, w.window, 'admin', db);
    const lost = await claimBackfill(b.id, { token: 'step-a', ms: 1_000 }, db, new Date(Date.now() - 5_000));
    expect(lost).not.toBeNull();
    expect(await claimBackfill(b.id, { token: 'step-b', ms: 60_000 }, db)).not.toBeNull(); // step-a's hold had expired
    const chunk = { scores: [{ runId: w.ids[0]!, evaluatorId: e.id, evaluatorName: 'guards', evaluatorVersion: 1, kind: 'guard_trips', score: 1, value: 0, detail: '', spendUsd: null }], queued: [], skipped: 0, scanned: 1, last: { at: w.hour, id: w.ids[0]! } };
    expect(await storeBackfillChunk(lost!, 'step-a', chunk, async () => undefined, db)).toBe(false);
    expect(await db.prisma.runScore.count({ where: { evaluatorId: e.id } })).toBe(0);
    await db.prisma.evaluatorBackfill.update({ where: { id: b.id }, data: { claimedBy: null, claimedUntil: null } });
    // Half the runs stored again (rebuilt traces) wait for the watch while the backfill runs: both score them.
    for (const id of w.ids.slice(0, 15)) await replaceRun(makeRun({ runId: id, rounds: 1, startedAt: w.hour.toISOString() }), { ...makeMeta({ tenant: 'acme' }), id }, db);
    await Promise.all([runAll(b.id), watchPendingRuns({ db })]);
    await watchPendingRuns({ db });
    expect(await db.prisma.runScore.count({ where: { evaluatorId: e.id } })).toBe(30);
    expect(await scoreCount(w.hour, 'acme', 'guards')).toBe(30);
    expect((await rollupRows({ tenant: 'acme', dim: 'all', from: w.hour, to: new Date(w.hour.getTime() + 3_600_000) }, db)).hours.reduce((n, h) => n + h.runs, 0)).toBe(30);
  });
});
