/**
 * Online evaluators on both databases (issue 37): a finished run outside a suite waits in the outbox
 * with the run itself, the watch drain scores it with its tenant's matching evaluators only, once
 * however often it is asked, and the scores sit beside the reviewers' labels without touching them.
 */
import { expect } from 'vitest';
import { saveEvaluator, removeEvaluator, listEvaluators } from '../db/review/evaluators';
import { completeWatch, judgeDisagreements, pendingWatchCount, scoresOfRun } from '../db/review/run-scores';
import { addRunLabel, labelsOfRun, unverifiedLabels } from '../db/review/labels';
import { TEST_EVIDENCE_KEY } from '../governance/evidence-signing';
import { verifyStoredChain } from '../db/governance/governance-evidence';
import { listRuns } from '../db/runs/runs-list';
import { deleteRun, replaceRun, saveRun } from '../db/runs/runs-write';
import { createSuiteRun } from '../db/suites/suites';
import { makeMeta, makeRun } from '../db/testing/run-fixtures';
import { describeOnDatabases } from '../db/testing/on-databases';
import { watchPendingRuns } from './watch-runs';
import { rollupRows } from '../db/review/rollup';

describeOnDatabases('online evaluators on $name', ({ test, db }) => {
  const drain = () => watchPendingRuns({ db });
  const clear = async () => {
    await drain();
    for (const tenant of ['acme', 'other', 'rollup']) for (const e of await listEvaluators(tenant, db)) await removeEvaluator(tenant, e.id, db);
  };

  test('puts a finished run in the outbox with the run, not a suite run, a paused one or a running one', async () => {
    await clear();
    const before = await pendingWatchCount(db);
    await saveRun(makeRun({ runId: 'w-fin' }), makeMeta({ tenant: 'acme' }), db);
    await saveRun(makeRun({ runId: 'w-paused', paused: true }), makeMeta({ tenant: 'acme' }), db);
    const suiteRunId = await createSuiteRun({ kind: 'eval', config: {}, datasetName: 'd', datasetHash: 'h', total: 1 }, db);
    await saveRun(makeRun({ runId: 'w-suite' }), makeMeta({ tenant: 'acme', suiteRunId }), db);
    const live = { ...makeRun({ runId: 'w-live' }), status: 'running' as const };
    const liveId = await saveRun(live, makeMeta({ tenant: 'acme' }), db);
    expect(await pendingWatchCount(db)).toBe(before + 1);
    // The live run finishing (stored again under its id) joins the outbox.
    await replaceRun({ ...live, status: 'finished' }, { ...makeMeta({ tenant: 'acme' }), id: liveId }, db);
    expect(await pendingWatchCount(db)).toBe(before + 2);
  });

  test("scores a run with its own tenant's matching evaluators only, each once", async () => {
    await clear();
    const loops = await saveEvaluator('acme', { name: 'loops', kind: 'loop_findings', enabled: true, config: {}, filter: {} }, 'admin', db);
    await saveEvaluator('acme', { name: 'imported-cost', kind: 'cost', enabled: true, config: { max: 1 }, filter: { source: 'imported' } }, 'admin', db);
    await saveEvaluator('other', { name: 'loops', kind: 'loop_findings', enabled: true, config: {}, filter: {} }, 'admin', db);
    const id = await saveRun(makeRun({ runId: 'w-acme' }), makeMeta({ tenant: 'acme' }), db);
    const report = await drain();
    expect(report.runs).toBeGreaterThanOrEqual(1);
    const scores = await scoresOfRun('acme', id, db);
    // The harness run is not imported: the cost evaluator's filter leaves it out; the other tenant's never sees it.
    expect(scores.map((s) => [s.evaluatorName, s.evaluatorVersion, s.source])).toEqual([['loops', loops.version, 'evaluator']]);
    expect(scores[0]).toMatchObject({ score: 1, value: 0 });
    expect(await scoresOfRun('other', id, db)).toEqual([]);
    // Asked again (a second worker, a repeated job): the run is off the outbox and nothing is added.
    expect(await completeWatch([{ run: { id, tenant: 'acme' }, scores: [], contribution: null }], 'another-drain', db)).toEqual([]);
    await drain();
    expect(await scoresOfRun('acme', id, db)).toHaveLength(1);
  });

  test('filters the runs list by an evaluator score range', async () => {
    await clear();
    await saveEvaluator('acme', { name: 'fast', kind: 'latency', enabled: true, config: { max: 1000 }, filter: {} }, 'admin', db);
    const slow = await saveRun(makeRun({ runId: 'w-slow', durationMs: 5000 }), makeMeta({ tenant: 'acme' }), db);
    const quick = await saveRun(makeRun({ runId: 'w-quick', durationMs: 200 }), makeMeta({ tenant: 'acme' }), db);
    await drain();
    const failing = await listRuns({ filters: { tenant: 'acme', evaluator: 'fast', maxScore: 0.5 } }, db);
    expect(failing.items.map((r) => r.id)).toEqual([slow]);
    const passing = await listRuns({ filters: { tenant: 'acme', evaluator: 'fast', minScore: 0.5, text: 'blue widgets' } }, db);
    expect(passing.items.map((r) => r.id)).toEqual([quick]);
    expect((await listRuns({ filters: { tenant: 'other', evaluator: 'fast' } }, db)).items).toEqual([]);
  });

  test("samples a judge by the run's id and stops it at its daily cap", async () => {
    await clear();
    const judge = await saveEvaluator('acme', { name: 'faithful', kind: 'judge', enabled: true, config: { judge: 'fake', sampleRate: 0.5 }, filter: {} }, 'admin', db);
    const ids: string[] = [];
    for (let i = 0; i < 40; i++) ids.push(await saveRun(makeRun({ runId: `w-j${i}`, rounds: 1 }), makeMeta({ tenant: 'acme' }), db));
    await drain();
    const { sampledRun } = await import('../eval');
    const graded = [];
    for (const id of ids) graded.push((await scoresOfRun('acme', id, db)).length === 1);
    expect(graded).toEqual(ids.map((id) => sampledRun(id, judge.id, 0.5)));
    // A cap of $0 grades nothing, and says so on the run.
    await saveEvaluator('acme', { name: 'faithful', kind: 'judge', enabled: true, config: { judge: 'fake', sampleRate: 1, dailyCapUsd: 0 }, filter: {} }, 'admin', db);
    const capped = await saveRun(makeRun({ runId: 'w-capped' }), makeMeta({ tenant: 'acme' }), db);
    await drain();
    expect(await scoresOfRun('acme', capped, db)).toMatchObject([{ evaluatorVersion: 2, score: null, detail: expect.stringContaining('daily cap') }]);
  });

  test("lists a judge score that disagrees with the reviewer's verdict, and leaves the labels' evidence intact", async () => {
    await clear();
    await saveEvaluator('acme', { name: 'faithful', kind: 'judge', enabled: true, config: { judge: 'fake', sampleRate: 1 }, filter: {} }, 'admin', db);
    // The fake judge finds the fixture's answer faithful (score 1): a reviewer's fail disagrees, a pass agrees.
    const id = await saveRun(makeRun({ runId: 'w-disagree' }), makeMeta({ tenant: 'acme' }), db);
    const agreed = await saveRun(makeRun({ runId: 'w-agree' }), makeMeta({ tenant: 'acme' }), db);
    const reviewer = { id: 'u-rev', name: 'Rita Reviewer' };
    await addRunLabel('acme', { runId: id, step: null, verdict: 'fail', category: null, score: null, comment: '', by: reviewer }, db, TEST_EVIDENCE_KEY);
    await addRunLabel('acme', { runId: agreed, step: null, verdict: 'pass', category: null, score: null, comment: '', by: reviewer }, db, TEST_EVIDENCE_KEY);
    await drain();
    const [score] = await scoresOfRun('acme', id, db);
    expect(score!.score).toBeGreaterThanOrEqual(0.5);
    expect((await judgeDisagreements('acme', 50, db)).map((d) => [d.runId, d.verdict])).toEqual([[id, 'fail']]);
    expect(await judgeDisagreements('other', 50, db)).toEqual([]);
    // Scores are not labels: the run has its one label, which still matches its evidence.
    expect(await labelsOfRun('acme', id, db)).toHaveLength(1);
    expect(await unverifiedLabels('acme', id, db)).toEqual([]);
    expect(await verifyStoredChain(db.prisma, TEST_EVIDENCE_KEY)).toMatchObject({ ok: true });
  });

  test('rolls finished runs up per hour, unknown cost apart, and moves a rebuilt run instead of counting it twice', async () => {
    await clear();
    const meta = makeMeta({ tenant: 'rollup' });
    await saveRun(makeRun({ runId: 'r1', startedAt: '2026-03-01T09:10:00.000Z', durationMs: 800 }), meta, db);
    await saveRun({ ...makeRun({ runId: 'r2', startedAt: '2026-03-01T09:50:00.000Z', durationMs: 1200 }), costEstimate: { usd: null, note: 'no price', known: false } }, meta, db);
    const live = makeRun({ runId: 'r3', startedAt: '2026-03-01T10:05:00.000Z' });
    const id3 = await saveRun(live, meta, db);
    await drain();
    const window = { tenant: 'rollup', dim: 'all' as const, from: new Date('2026-03-01T00:00:00Z'), to: new Date('2026-03-02T00:00:00Z') };
    const nine = (await rollupRows(window, db)).hours.filter((r) => r.hour.toISOString() === '2026-03-01T09:00:00.000Z');
    expect(nine).toMatchObject([{ termination: 'COMPLETED', runs: 2, costUnknownRuns: 1, costUsd: 0.0123 }]);
    expect((await rollupRows({ ...window, tenant: 'other' }, db)).hours).toEqual([]);
    // The run is stored again (a rebuilt trace) ending otherwise: its old part is taken back, the new one added.
    await replaceRun({ ...live, terminationReason: 'MODEL_ERROR' }, { ...meta, id: id3 }, db);
    await drain();
    const ten = (await rollupRows(window, db)).hours.filter((r) => r.hour.toISOString() === '2026-03-01T10:00:00.000Z' && r.runs !== 0);
    expect(ten.map((r) => [r.termination, r.runs])).toEqual([['MODEL_ERROR', 1]]);
    const latency = (await rollupRows(window, db)).latency.filter((r) => r.hour.toISOString() === '2026-03-01T10:00:00.000Z').reduce((n, r) => n + r.count, 0);
    expect(latency).toBe(1);
    // A month's chart reads the day sums (in the database on PostgreSQL): the same points as the hours summed.
    const { prepareTrends } = await import('../charts/trends');
    const month = { from: window.from, to: window.to, step: 'day' as const };
    const byDay = prepareTrends(await rollupRows(window, db, undefined, 'day'), month);
    expect(byDay).toEqual(prepareTrends(await rollupRows(window, db), month));
    expect(byDay.series[0]!.points[0]).toMatchObject({ runs: 3, costUnknownRuns: 1 });
    // A dimension's lines read summed over terminations, without scores: the same runs, latency and cost per point.
    for (const step of ['hour', 'day'] as const) {
      const w = { from: window.from, to: window.to, step };
      const full = prepareTrends(await rollupRows({ ...window, dim: 'model' }, db, undefined, step), w);
      const lines = await rollupRows({ ...window, dim: 'model' }, db, undefined, step, { series: true });
      expect(lines.scores).toEqual([]);
      expect(new Set(lines.hours.map((h) => h.termination))).toEqual(new Set(['*']));
      const pick = (t: typeof full) => t.series.map((x) => x.points.map((p) => [p.runs, p.p50Ms, p.p95Ms, p.costUsd, p.costUnknownRuns, p.inputTokens]));
      expect(pick(prepareTrends(lines, w))).toEqual(pick(full));
    }
  });

  test('a run stored again while a drain holds it is counted as it is now: the drain takes nothing stale', async () => {
    await clear();
    const meta = makeMeta({ tenant: 'rollup' });
    const first = makeRun({ runId: 'w-moved', startedAt: '2026-03-02T09:10:00.000Z' });
    const id = await saveRun(first, meta, db);
    // A live judge is built while the drain holds the run (claimed, scoring): the run is stored again then.
    await saveEvaluator('rollup', { name: 'live', kind: 'judge', enabled: true, config: { judge: 'openai:gpt-4o-mini', sampleRate: 1 }, filter: {} }, 'admin', db);
    const { FakeJudge } = await import('../eval');
    const report = await watchPendingRuns({
      db,
      liveJudge: async () => {
        await replaceRun({ ...first, terminationReason: 'MODEL_ERROR' }, { ...meta, id }, db);
        return new FakeJudge('v2');
      },
    });
    expect(await pendingWatchCount(db)).toBe(0);
    expect(report.runs).toBe(1);
    const window = { tenant: 'rollup', dim: 'all' as const, from: new Date('2026-03-02T00:00:00Z'), to: new Date('2026-03-03T00:00:00Z') };
    const counted = (await rollupRows(window, db)).hours.filter((r) => r.runs !== 0).map((r) => [r.termination, r.runs]);
    expect(counted).toEqual([['MODEL_ERROR', 1]]);
    expect(await scoresOfRun('rollup', id, db)).toHaveLength(1);
  });

  test('a drain that fails gives back the runs it held: the next drain takes them at once, not after the hold', async () => {
    await clear();
    await saveEvaluator('rollup', { name: 'live', kind: 'judge', enabled: true, config: { judge: 'openai:gpt-4o-mini', sampleRate: 1 }, filter: {} }, 'admin', db);
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push(await saveRun(makeRun({ runId: `w-back${i}`, rounds: 1 }), makeMeta({ tenant: 'rollup' }), db));
    const { FakeJudge } = await import('../eval');
    await expect(watchPendingRuns({ db, liveJudge: async () => Promise.reject(new Error('the judge is away')) })).rejects.toThrow('the judge is away');
    expect(await pendingWatchCount(db)).toBe(3);
    expect(await db.prisma.runWatch.count({ where: { claimedBy: { not: null } } })).toBe(0);
    const report = await watchPendingRuns({ db, liveJudge: async () => new FakeJudge('v2') });
    expect(report.runs).toBe(3);
    for (const id of ids) expect(await scoresOfRun('rollup', id, db)).toHaveLength(1);
  });

  test('a live judge this worker cannot build scores null saying why, and holds up no run: not its own, not another tenant\'s', async () => {
    await clear();
    const saved = process.env.OPENAI_API_KEY;
    delete process.env.OPENAI_API_KEY;
    try {
      await saveEvaluator('rollup', { name: 'live', kind: 'judge', enabled: true, config: { judge: 'openai:gpt-4o-mini', sampleRate: 1 }, filter: {} }, 'admin', db);
      await saveEvaluator('rollup', { name: 'loops', kind: 'loop_findings', enabled: true, config: {}, filter: {} }, 'admin', db);
      await saveEvaluator('other', { name: 'loops', kind: 'loop_findings', enabled: true, config: {}, filter: {} }, 'admin', db);
      const mine = await saveRun(makeRun({ runId: 'w-nokey', rounds: 1 }), makeMeta({ tenant: 'rollup' }), db);
      const theirs = await saveRun(makeRun({ runId: 'w-nokey-other', rounds: 1 }), makeMeta({ tenant: 'other' }), db);
      // The default builder (the models library's createJudge), not a stand-in: it refuses without the key.
      const report = await watchPendingRuns({ db });
      expect(report.runs).toBe(2);
      expect(await pendingWatchCount(db)).toBe(0);
      const scores = await scoresOfRun('rollup', mine, db);
      const judged = scores.find((s) => s.evaluatorName === 'live');
      expect(judged).toMatchObject({ score: null, value: null });
      expect(judged?.detail).toMatch(/not graded: the judge cannot be used by this worker.*OPENAI_API_KEY/);
      expect(scores.find((s) => s.evaluatorName === 'loops')?.score).not.toBeNull();
      expect(await scoresOfRun('other', theirs, db)).toHaveLength(1);
    } finally {
      if (saved !== undefined) process.env.OPENAI_API_KEY = saved;
    }
  });

  test('drops a deleted run from the outbox with it', async () => {
    await clear();
    await saveEvaluator('acme', { name: 'loops', kind: 'loop_findings', enabled: true, config: {}, filter: {} }, 'admin', db);
    const id = await saveRun(makeRun({ runId: 'w-gone' }), makeMeta({ tenant: 'acme' }), db);
    const before = await pendingWatchCount(db);
    await deleteRun(id, db);
    expect(await pendingWatchCount(db)).toBe(before - 1);
    await drain();
    expect(await pendingWatchCount(db)).toBe(0);
  });
});
