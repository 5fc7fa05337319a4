/**
 * Usage that was not reported is stored as unknown (issue 40, part 1): a model turn's null tokens,
 * its local estimate, the run's count of unreported calls, its split by purpose, and the cost's mark
 * of a lower bound all come back as saved; the runs list and a suite's total carry the count, on both
 * databases.
 */
import { expect } from 'vitest';
import { isModelTurn, type RunResult } from '../../harness/types';
import { getRunOrThrow } from './runs-read';
import { listRuns } from './runs-list';
import { saveRun } from './runs-write';
import { getSuiteLive } from '../suites/suite-live';
import { createSuiteRun } from '../suites/suites';
import { makeMeta, makeRun } from '../testing/run-fixtures';
import { describeOnDatabases } from '../testing/on-databases';


/** The fixture run with its second model call unreported, estimated, and a guardrail call beside the agent's. */
function unreportedRun(runId: string): RunResult {
  const run = makeRun({ runId });
  let call = 0;
  const trajectory = run.trajectory.map((s) => {
    if (!isModelTurn(s) || ++call !== 2) return s;
    return { ...s, inputTokens: null, outputTokens: null, usageEstimate: { inputTokens: 210, outputTokens: 18, by: 'js-tiktoken o200k_base (estimated)' } };
  });
  const perCall = run.usage.perCall.map((c, i) => (i === 1 ? { inputTokens: null, outputTokens: null } : c));
  const inputTokens = perCall.reduce((n, c) => n + (c.inputTokens ?? 0), 0) + 50;
  const outputTokens = perCall.reduce((n, c) => n + (c.outputTokens ?? 0), 0) + 5;
  return {
    ...run,
    mode: 'live',
    modelId: 'openai:gpt-priced',
    trajectory,
    usage: {
      ...run.usage,
      perCall,
      inputTokens,
      outputTokens,
      totalTokens: inputTokens + outputTokens,
      unreportedCalls: 1,
      estimatedTokens: { inputTokens: 210, outputTokens: 18, by: 'js-tiktoken o200k_base (estimated)', calls: 1 },
      byPurpose: {
        agent: { calls: perCall.length, inputTokens: inputTokens - 50, outputTokens: outputTokens - 5, unreportedCalls: 1 },
        guardrail: { calls: 1, inputTokens: 50, outputTokens: 5, unreportedCalls: 0 },
      },
    },
    costEstimate: { usd: 0.0012, note: 'test prices', unreportedCalls: 1 },
  };
}

describeOnDatabases('unreported usage on $name', ({ test, db }) => {
  test('comes back as saved: null tokens, the estimate, the count, the split by purpose', async () => {
    const run = unreportedRun('unreported-1');
    const id = await saveRun(run, makeMeta(), db);
    const back = (await getRunOrThrow(id, db)).run;
    expect(back.usage).toEqual(run.usage);
    expect(back.costEstimate).toEqual(run.costEstimate);
    const turn = back.trajectory.filter(isModelTurn)[1]!;
    expect(turn).toMatchObject({ inputTokens: null, outputTokens: null, usageEstimate: { inputTokens: 210, by: 'js-tiktoken o200k_base (estimated)' } });
  });

  test('the runs list and a suite’s total say how many calls went unreported', async () => {
    const suiteRunId = await createSuiteRun({ kind: 'matrix', config: {}, datasetName: 'd', datasetHash: 'h', total: 1 }, db);
    const id = await saveRun(unreportedRun('unreported-2'), makeMeta({ suiteRunId }), db);
    const row = (await listRuns({}, db)).items.find((r) => r.id === id)!;
    expect(row).toMatchObject({ unreportedCalls: 1, costUsd: 0.0012, costKnown: true });
    const live = await getSuiteLive(suiteRunId, db);
    expect(live.cost).toMatchObject({ known: true, unreportedCalls: 1 });
    expect(Object.values(live.cost.bySetting)).toEqual([expect.objectContaining({ unreportedCalls: 1 })]);
  });
});

