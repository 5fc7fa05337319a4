/**
 * Suite-level metrics (SPEC.md §12.9). Keys keep the reference's snake_case names: they are the
 * names thresholds, baselines and published tables use. Every mean is Python's
 * `round(fmean(values), 4)`.
 */
import { z } from 'zod';
import { compareCodePoints } from '../harness/browser';
import type { CaseScores } from './case-scores';
import { fsum, mean4, roundTo } from './numbers';

export const CategoryMetricsSchema = z.object({
  cases: z.number().int(),
  tool_selection_accuracy: z.number(),
  answer_correctness: z.number(),
  termination_match_rate: z.number(),
});
export type CategoryMetrics = z.infer<typeof CategoryMetricsSchema>;

/** The numeric suite metrics, in the reference's order. */
export const METRIC_KEYS = [
  'tool_selection_accuracy',
  'argument_correctness',
  'trajectory_match_rate',
  'answer_correctness',
  'answer_correctness_deterministic',
  'answer_correctness_judge_mean_score',
  'faithfulness_mean_score',
  'termination_match_rate',
  'must_not_call_ok_rate',
  'step_count_ok_rate',
  'loop_rate',
  'invalid_call_rate',
  'blocked_call_rate',
  'compaction_rate',
  'mean_model_calls',
  'mean_input_tokens',
  'mean_output_tokens',
  'total_cost_usd',
  // Guardrails (issue 28): present only when a case ran under guardrails, so a suite without them
  // reports exactly what it did before.
  /** Cases where at least one guardrail fired (refused a call, was violated, found something, judge failed). */
  'guardrail_violation_rate',
  /** Mean guardrail retries per case (extra turns the agent was given to meet its guardrails). */
  'mean_guardrail_retries',
  /** Cases whose answer was delivered with recorded violations (`on_violation: warn`). */
  'warned_answer_rate',
] as const;

/** The metrics a suite has only when its cases ran under guardrails. */
export const GUARDRAIL_METRIC_KEYS = ['guardrail_violation_rate', 'mean_guardrail_retries', 'warned_answer_rate'] as const satisfies readonly (typeof METRIC_KEYS)[number][];
export type MetricKey = (typeof METRIC_KEYS)[number];

/** Metrics are optional in the schema: an empty suite has only `cases`, and a stored report may predate a metric. */
export const AggregateMetricsSchema = z.object({
  cases: z.number().int(),
  ...(Object.fromEntries(METRIC_KEYS.map((k) => [k, z.number().optional()])) as Record<MetricKey, z.ZodOptional<z.ZodNumber>>),
  /** The agent's cost; null (unknown) when any case's model has no price: a partial sum is not the cost. */
  total_cost_usd: z.number().nullable().optional(),
  cost_known: z.boolean().optional(),
  /** Model calls of the agent that reported no usage (absent: none): total_cost_usd is then a lower bound. */
  unreported_calls: z.number().int().optional(),
  /**
   * A live judge's own spend, apart from the agent's (present only when a judge made provider calls):
   * its calls (failed ones included), the calls that failed (their items count as unscored), and USD
   * (null when the judge model has no price).
   */
  judge_calls: z.number().int().optional(),
  judge_failed_calls: z.number().int().optional(),
  judge_cost_usd: z.number().nullable().optional(),
  /** Judge calls that reported no usage (absent: none); judge_cost_usd is then null (unknown). */
  judge_unreported_calls: z.number().int().optional(),
  /** Per guardrail that was on in some case: the share of those cases in which it fired. */
  guardrail_violation_rates: z.record(z.string(), z.number()).optional(),
});
export type AggregateMetrics = z.infer<typeof AggregateMetricsSchema>;

export interface Aggregate {
  metrics: AggregateMetrics;
  /** Per category, sorted by name. */
  byCategory: Record<string, CategoryMetrics>;
}

const rate = (scores: readonly CaseScores[], test: (s: CaseScores) => boolean): number =>
  mean4(scores.map((s) => (test(s) ? 1 : 0)));

/** Judge-based when any case was judged, else the deterministic check. */
function answerCorrectness(scores: readonly CaseScores[]): number {
  const judged = scores.filter((s) => s.judgePassed !== null);
  if (judged.length > 0) return rate(judged, (s) => s.judgePassed === true);
  return rate(scores, (s) => s.answerCorrectnessDeterministic);
}

function byCategory(scores: readonly CaseScores[]): Record<string, CategoryMetrics> {
  const groups = new Map<string, CaseScores[]>();
  for (const s of scores) groups.set(s.category, [...(groups.get(s.category) ?? []), s]);
  const out: Record<string, CategoryMetrics> = {};
  for (const name of [...groups.keys()].sort(compareCodePoints)) {
    const group = groups.get(name)!;
    out[name] = {
      cases: group.length,
      tool_selection_accuracy: mean4(group.map((s) => s.toolSelection)),
      answer_correctness: answerCorrectness(group),
      termination_match_rate: rate(group, (s) => s.terminationMatch),
    };
  }
  return out;
}

/** The guardrail metrics, over the cases that ran under guardrails; nothing when none did. */
function guardrailMetrics(scores: readonly CaseScores[]): Partial<AggregateMetrics> {
  const guarded = scores.filter((s) => s.guardrails !== undefined);
  if (guarded.length === 0) return {};
  const names = [...new Set(guarded.flatMap((s) => s.guardrails!.on))].sort(compareCodePoints);
  const rates: Record<string, number> = {};
  for (const name of names) {
    const on = guarded.filter((s) => s.guardrails!.on.includes(name));
    rates[name] = rate(on, (s) => s.guardrails!.violated.includes(name));
  }
  return {
    guardrail_violation_rate: rate(guarded, (s) => s.guardrails!.violated.length > 0),
    mean_guardrail_retries: mean4(guarded.map((s) => s.guardrails!.retries)),
    warned_answer_rate: rate(guarded, (s) => s.guardrails!.warned),
    guardrail_violation_rates: rates,
  };
}

/** Aggregates per-case scores into the suite metrics and the per-category rows. */
export function aggregate(scores: readonly CaseScores[]): Aggregate {
  if (scores.length === 0) return { metrics: { cases: 0 }, byCategory: {} };
  const judged = scores.filter((s) => s.answerCorrectnessJudge !== null);
  const metrics: AggregateMetrics = {
    cases: scores.length,
    tool_selection_accuracy: mean4(scores.map((s) => s.toolSelection)),
    argument_correctness: mean4(scores.map((s) => s.argumentCorrectness)),
    trajectory_match_rate: rate(scores, (s) => s.trajectoryMatch),
    answer_correctness: answerCorrectness(scores),
    answer_correctness_deterministic: rate(scores, (s) => s.answerCorrectnessDeterministic),
    answer_correctness_judge_mean_score: mean4(judged.map((s) => s.answerCorrectnessJudge as number)),
    faithfulness_mean_score: mean4(scores.flatMap((s) => (s.faithfulnessJudge === null ? [] : [s.faithfulnessJudge]))),
    termination_match_rate: rate(scores, (s) => s.terminationMatch),
    must_not_call_ok_rate: rate(scores, (s) => s.mustNotCallOk),
    step_count_ok_rate: rate(scores, (s) => s.stepCountOk),
    loop_rate: rate(scores, (s) => s.loopFindings > 0 || s.repeatedIdentical > 0),
    invalid_call_rate: rate(scores, (s) => s.invalidCalls > 0),
    blocked_call_rate: rate(scores, (s) => s.blockedCalls > 0),
    compaction_rate: rate(scores, (s) => s.compactions > 0),
    mean_model_calls: mean4(scores.map((s) => s.modelCalls)),
    mean_input_tokens: mean4(scores.map((s) => s.inputTokens)),
    mean_output_tokens: mean4(scores.map((s) => s.outputTokens)),
    total_cost_usd: scores.every((s) => s.costUsd !== null) ? roundTo(fsum(scores.map((s) => s.costUsd ?? 0)), 6) : null,
    cost_known: scores.every((s) => s.costUsd !== null),
    ...guardrailMetrics(scores),
  };
  const spends = scores.flatMap((s) => (s.judgeSpend ? [s.judgeSpend] : []));
  if (spends.length > 0) {
    metrics.judge_calls = spends.reduce((n, s) => n + s.calls, 0);
    metrics.judge_failed_calls = spends.reduce((n, s) => n + s.failedCalls, 0);
    metrics.judge_cost_usd = spends.every((s) => s.usd !== null) ? roundTo(fsum(spends.map((s) => s.usd ?? 0)), 6) : null;
    const judgeUnreported = spends.reduce((n, s) => n + (s.unreportedCalls ?? 0), 0);
    if (judgeUnreported > 0) metrics.judge_unreported_calls = judgeUnreported;
  }
  const unreported = scores.reduce((n, s) => n + (s.unreportedCalls ?? 0), 0);
  if (unreported > 0) metrics.unreported_calls = unreported;
  return { metrics, byCategory: byCategory(scores) };
}
