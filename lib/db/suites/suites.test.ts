import { expect } from 'vitest';
import { NotFoundError } from '../core/errors';
import { saveRuns } from '../runs/runs-write';
import {
  completeSuiteRun,
  createSuiteRun,
  failSuiteRun,
  getMatrixCasesThatMoved,
  getSuiteCases,
  getSuiteRunOrThrow,
  listSuiteRuns,
  updateSuiteProgress,
} from './suites';
import { makeMeta, makeRun } from '../testing/run-fixtures';
import { describeOnDatabases } from '../testing/on-databases';

describeOnDatabases('suite runs on $name', ({ test, db }) => {
  const suiteInput = { kind: 'matrix' as const, config: { maxSteps: 12 }, datasetName: 'stockroom-v1', datasetHash: 'h1', total: 6 };

  test('tracks a matrix from queued through progress to done, with metrics per setting', async () => {
    const id = await createSuiteRun(suiteInput, db);
    expect((await getSuiteRunOrThrow(id, db)).status).toBe('queued');
    await updateSuiteProgress(id, { status: 'running' }, db);
    // Progress is the stored cases (issue 12: a counter said 61 cases done while 0 runs were stored).
    expect(await getSuiteRunOrThrow(id, db)).toMatchObject({ status: 'running', completed: 0, total: 6 });

    const runs = await saveRuns(
      ['none', 'naive_retry'].flatMap((setting) =>
        ['c1', 'c2', 'c3'].map((caseId) => ({
          run: makeRun({ caseId, weaknesses: setting === 'none' ? [] : [setting] }),
          meta: makeMeta({ suiteRunId: id }),
        })),
      ),
      db,
    );
    const scores = [
      { correct: true, steps: 3 },
      { correct: true, steps: 4 },
      { correct: false, steps: 5 },
      { correct: true, steps: 3 },
      { correct: false, steps: 9 },
      { correct: false, steps: 5 },
    ];
    await completeSuiteRun(
      id,
      {
        goldenSha256: 'g'.repeat(64),
        settings: ['none', 'naive_retry'].map((setting, s) => ({
          setting,
          metrics: { accuracy: s === 0 ? 2 / 3 : 1 / 3 },
          byCategory: { lookup: { accuracy: 0.5 } },
          reportedAt: '2025-03-04T05:06:07.000Z',
          cases: ['c1', 'c2', 'c3'].map((caseId, c) => ({ caseId, category: 'lookup', scores: scores[s * 3 + c]!, runId: runs[s * 3 + c]! })),
        })),
      },
      db,
    );
    const done = await getSuiteRunOrThrow(id, db);
    expect(done.status).toBe('done');
    expect(done.completed).toBe(6);
    expect(done.finishedAt).not.toBeNull();
    expect(done.goldenSha256).toBe('g'.repeat(64));
    expect(done.settings.map((s) => [s.setting, s.metrics])).toEqual([
      ['naive_retry', { accuracy: 1 / 3 }],
      ['none', { accuracy: 2 / 3 }],
    ]);
    expect(await getSuiteCases(id, 'naive_retry', db)).toHaveLength(3);

    const moved = await getMatrixCasesThatMoved(id, 'naive_retry', 'correct', db);
    expect(moved).toEqual([
      { caseId: 'c2', category: 'lookup', baseline: true, value: false, delta: -1, epochs: 1, movedEpochs: 1, epoch: 0, baselineRunId: runs[1], runId: runs[4] },
    ]);
    const steps = await getMatrixCasesThatMoved(id, 'naive_retry', 'steps', db);
    expect(steps.map((m) => [m.caseId, m.delta])).toEqual([['c2', 5]]);
  });

  test('with epochs, a moved case is judged over all its epochs and the suite says its epochs (from its job, or its stored cases)', async () => {
    const id = await createSuiteRun({ ...suiteInput, total: 8 }, db);
    // Two cases × two epochs per setting; c1 agrees in epoch 0 and fails in epoch 1 under naive_retry, c2 never moves.
    const correct: Record<string, boolean[]> = { 'none/c1': [true, true], 'none/c2': [false, false], 'naive_retry/c1': [true, false], 'naive_retry/c2': [false, false] };
    await completeSuiteRun(
      id,
      {
        settings: ['none', 'naive_retry'].map((setting) => ({
          setting,
          metrics: {},
          byCategory: {},
          cases: ['c1', 'c2'].flatMap((caseId) => [0, 1].map((epoch) => ({ caseId, epoch, category: 'lookup', scores: { correct: correct[`${setting}/${caseId}`]![epoch]! } }))),
        })),
      },
      db,
    );
    expect(await getMatrixCasesThatMoved(id, 'naive_retry', 'correct', db)).toEqual([
      { caseId: 'c1', category: 'lookup', baseline: 1, value: 0.5, delta: -0.5, epochs: 2, movedEpochs: 1, epoch: 1, baselineRunId: null, runId: null },
    ]);
    expect(await getSuiteCases(id, 'none', db)).toHaveLength(2);
    expect((await getSuiteCases(id, 'none', db, { allEpochs: true })).map((c) => [c.caseId, c.epoch])).toEqual([['c1', 0], ['c1', 1], ['c2', 0], ['c2', 1]]);
    // No job (as the CLI stores a suite): the epochs are read from the stored cases.
    expect((await getSuiteRunOrThrow(id, db)).epochs).toBe(2);
    // A queued suite has stored no case yet: its job says how many epochs it runs.
    const queued = await createSuiteRun({ ...suiteInput, total: 30, jobSpec: { suiteRunId: 'x', datasetDir: 'd', goldenPath: 'g', settings: ['none'], epochs: 5 } }, db);
    const plain = await createSuiteRun({ ...suiteInput, jobSpec: { suiteRunId: 'y', datasetDir: 'd', goldenPath: 'g', settings: ['none'] } }, db);
    expect((await getSuiteRunOrThrow(queued, db)).epochs).toBe(5);
    const listed = new Map((await listSuiteRuns({ limit: 100 }, db)).items.map((s) => [s.id, s.epochs]));
    expect([listed.get(id), listed.get(queued), listed.get(plain)]).toEqual([2, 5, 1]);
  });

  test('records a failed suite with its error', async () => {
    const id = await createSuiteRun({ ...suiteInput, kind: 'eval' }, db);
    await failSuiteRun(id, 'dataset missing', db);
    expect(await getSuiteRunOrThrow(id, db)).toMatchObject({ status: 'failed', error: 'dataset missing' });
  });

  test('lists suite runs newest first, page by page', async () => {
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push(await createSuiteRun({ ...suiteInput, kind: 'eval' }, db));
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: Awaited<ReturnType<typeof listSuiteRuns>> = await listSuiteRuns({ kind: 'eval', limit: 2, cursor }, db);
      seen.push(...page.items.map((s) => s.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen.length).toBe(new Set(seen).size);
    expect(seen).toEqual(expect.arrayContaining(ids));
    expect(seen.indexOf(ids[2]!)).toBeLessThan(seen.indexOf(ids[0]!));
  });

  test('refuses progress for a suite that does not exist', async () => {
    await expect(updateSuiteProgress('nope', { status: 'running' }, db)).rejects.toBeInstanceOf(NotFoundError);
  });
});
