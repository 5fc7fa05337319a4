/**
 * The matrix page's read of a working suite: each setting over the cases stored so far (the table
 * fills in as runs arrive), and how long the last finished suite like it took (the estimate before
 * the first stored case), on both databases.
 */
import { expect } from 'vitest';
import { finishSuiteIfComplete, storeSuiteCase } from './suite-jobs';
import { getSuitePoll } from './suite-poll';
import { createSuiteRun } from './suites';
import { makeMeta, makeRun } from '../testing/run-fixtures';
import { describeOnDatabases } from '../testing/on-databases';
import type { CaseScores } from '../../eval/case-scores';

const scores = (caseId: string, runId: string, toolSelection: number): CaseScores =>
  ({
    caseId, category: 'lookup', toolSelection, argumentCorrectness: 1, trajectoryMatch: true, terminationMatch: true, mustNotCallOk: true,
    mustNotCallViolations: [], stepCountOk: true, steps: 3, modelCalls: 3, answerCorrectnessDeterministic: true, factsMissing: [],
    forbiddenFound: [], answerCorrectnessJudge: null, judgePassed: null, judgeRationale: null, faithfulnessJudge: null, loopFindings: 0,
    repeatedIdentical: 0, invalidCalls: 0, blockedCalls: 0, compactions: 0, contextGrowthRatio: 1, inputTokens: 100, outputTokens: 10,
    costUsd: null, terminationReason: 'COMPLETED', toolNames: ['search_products'], finalAnswer: 'answer', runId,
  }) satisfies CaseScores;

describeOnDatabases('a working suite as the matrix page reads it, on $name', ({ test, db }) => {
  const newSuite = (total: number, model: string, hash = 'poll-h') =>
    createSuiteRun({ kind: 'matrix', config: { model }, datasetName: 'd', datasetHash: hash, total, tenant: 'kittiwake', createdBy: 'u1' }, db);
  const store = (suiteRunId: string, caseId: string, setting: string, toolSelection: number) => {
    const runId = `${suiteRunId}-${setting}-${caseId}`;
    return storeSuiteCase({ run: makeRun({ runId, caseId, weaknesses: setting === 'none' ? [] : [setting] } as never), meta: { ...makeMeta({ suiteRunId }), suiteRunId }, setting, caseId, category: 'lookup', scores: scores(caseId, runId, toolSelection) }, db);
  };

  test('fills in each setting from its stored cases while working, and names no earlier suite when there is none', async () => {
    const id = await newSuite(4, 'fake');
    expect(await getSuitePoll(id, 'kittiwake', db)).toMatchObject({ partial: [], previousMs: null, progress: { stored: 0, total: 4 } });
    await store(id, 'c1', 'none', 1);
    await store(id, 'c2', 'none', 0);
    await store(id, 'c1', 'ambiguous_tool_desc', 0);
    const poll = await getSuitePoll(id, 'kittiwake', db);
    expect(poll.suite.settings).toEqual([]);
    expect(poll.partial.map((p) => [p.setting, p.cases, (p.metrics as Record<string, number>).tool_selection_accuracy])).toEqual([
      ['ambiguous_tool_desc', 1, 0],
      ['none', 2, 0.5],
    ]);
    expect(poll.elapsedMs).toBeGreaterThanOrEqual(0);
  });

  test('estimates from the newest finished suite of the same dataset and model, and stops once finished', async () => {
    const done = await newSuite(1, 'fake', 'poll-h2');
    await store(done, 'c1', 'none', 1);
    expect(await finishSuiteIfComplete(done, db)).toBe(true);
    const row = await db.prisma.suiteRun.findUniqueOrThrow({ where: { id: done } });
    const took = row.finishedAt!.getTime() - row.createdAt.getTime();
    const next = await newSuite(2, 'fake', 'poll-h2');
    const otherModel = await newSuite(2, 'openai:gpt-4o-mini', 'poll-h2');
    expect((await getSuitePoll(next, 'kittiwake', db)).previousMs).toBe(took);
    expect((await getSuitePoll(otherModel, 'kittiwake', db)).previousMs).toBeNull();
    expect((await getSuitePoll(done, 'kittiwake', db)).partial).toEqual([]);
  });
});
