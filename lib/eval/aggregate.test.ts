import { describe, expect, it } from 'vitest';
import { aggregate } from './aggregate';
import { CaseScoresSchema, evaluateCase, type CaseScores } from './case-scores';
import { goldenCase, makeRun } from './testing/fixtures';

const base: CaseScores = CaseScoresSchema.parse(await evaluateCase(goldenCase(), makeRun()));
const score = (over: Partial<CaseScores>): CaseScores => ({ ...base, ...over });

describe('aggregate', () => {
  it('returns only the case count for no scores', () => {
    expect(aggregate([])).toEqual({ metrics: { cases: 0 }, byCategory: {} });
  });

  it('averages each metric to 4 decimals', () => {
    const { metrics } = aggregate([
      score({ toolSelection: 1, argumentCorrectness: 2 / 3, inputTokens: 1000, modelCalls: 2 }),
      score({ toolSelection: 0, argumentCorrectness: 1, inputTokens: 1001, modelCalls: 3 }),
      score({ toolSelection: 1, argumentCorrectness: 1, inputTokens: 1001, modelCalls: 3 }),
    ]);
    expect(metrics).toMatchObject({
      cases: 3,
      tool_selection_accuracy: 0.6667,
      argument_correctness: 0.8889,
      mean_input_tokens: 1000.6667,
      mean_model_calls: 2.6667,
    });
  });

  it('counts a case once in loop_rate whichever loop finding fired', () => {
    const { metrics } = aggregate([
      score({ loopFindings: 1, repeatedIdentical: 1 }),
      score({ loopFindings: 0, repeatedIdentical: 2 }),
      score({}),
      score({}),
    ]);
    expect(metrics.loop_rate).toBe(0.5);
  });

  it('uses the judge verdict for answer_correctness when any case was judged, else the deterministic check', () => {
    const judged = aggregate([
      score({ judgePassed: true, answerCorrectnessDeterministic: false }),
      score({ judgePassed: false, answerCorrectnessDeterministic: true }),
      score({ judgePassed: true, answerCorrectnessDeterministic: true }),
    ]);
    expect(judged.metrics.answer_correctness).toBe(0.6667);
    expect(judged.metrics.answer_correctness_deterministic).toBe(0.6667);
    const unjudged = aggregate([
      score({ judgePassed: null, answerCorrectnessJudge: null, answerCorrectnessDeterministic: false }),
      score({ judgePassed: null, answerCorrectnessJudge: null, answerCorrectnessDeterministic: true }),
    ]);
    expect(unjudged.metrics.answer_correctness).toBe(0.5);
  });

  it('averages faithfulness only over cases that have a score', () => {
    const { metrics } = aggregate([score({ faithfulnessJudge: 0.5 }), score({ faithfulnessJudge: null }), score({ faithfulnessJudge: 1 })]);
    expect(metrics.faithfulness_mean_score).toBe(0.75);
  });

  it('rates blocked, invalid and compacted cases, and sums cost to 6 decimals', () => {
    const { metrics } = aggregate([
      score({ blockedCalls: 2, invalidCalls: 1, costUsd: 0.1 }),
      score({ compactions: 1, costUsd: 0.2 }),
      score({ costUsd: null }),
      score({ costUsd: 0.0000004 }),
    ]);
    expect(metrics).toMatchObject({
      blocked_call_rate: 0.25,
      invalid_call_rate: 0.25,
      compaction_rate: 0.25,
      // One case's model has no price: the total is unknown, not the sum of the others.
      total_cost_usd: null,
      cost_known: false,
    });
    const priced = aggregate([score({ costUsd: 0.1 }), score({ costUsd: 0.2 }), score({ costUsd: 0.0000004 })]).metrics;
    expect(priced).toMatchObject({ total_cost_usd: 0.3, cost_known: true });
  });

  it('groups by category, sorted by name', () => {
    const { byCategory } = aggregate([
      score({ category: 'stock', toolSelection: 0, judgePassed: false }),
      score({ category: 'orders', terminationMatch: false }),
      score({ category: 'stock' }),
    ]);
    expect(Object.keys(byCategory)).toEqual(['orders', 'stock']);
    expect(byCategory.stock).toEqual({ cases: 2, tool_selection_accuracy: 0.5, answer_correctness: 0.5, termination_match_rate: 1 });
    expect(byCategory.orders).toEqual({ cases: 1, tool_selection_accuracy: 1, answer_correctness: 1, termination_match_rate: 0 });
  });
});
