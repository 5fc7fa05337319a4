/**
 * What each metric is per run, so intervals and paired tests can resample runs and cases: a pass/fail
 * (a rate, Wilson interval, McNemar/sign test) or a number (a mean, bootstrap interval, permutation
 * test). A run without a value for a metric (no judge, no tool call to be faithful to) is left out.
 */
import { isModelTurn, type RunResult } from '../harness';
import type { CaseScores } from './case-scores';
import type { SuiteCaseResult } from './suite';

export type MetricShape = 'rate' | 'mean';

/** One run of one case, as the interval code sees it. */
export interface RunPoint {
  caseId: string;
  category: string;
  scores: CaseScores;
  /** The run's model time: the sum of its model calls' latencies, ms (the fake model's is a formula of its tokens). */
  modelLatencyMs: number;
}

/** The model time of a run (its model turns' latencies summed). */
export function modelLatencyOf(run: Pick<RunResult, 'trajectory'>): number {
  return run.trajectory.filter(isModelTurn).reduce((ms, t) => ms + t.latencyMs, 0);
}

/** A suite's results as interval points. */
export function runPointsOf(results: readonly SuiteCaseResult[]): RunPoint[] {
  return results.map((r) => ({ caseId: r.golden.id, category: r.golden.category, scores: r.scores, modelLatencyMs: modelLatencyOf(r.run) }));
}

export interface IntervalMetric {
  key: string;
  shape: MetricShape;
  /** The run's value; null when the run has none. `judged` says whether any run in the group was judged. */
  value: (run: RunPoint, judged: boolean) => number | null;
}

const flag = (b: boolean): number => (b ? 1 : 0);

/** The metrics that get intervals, in report order (the suite metrics that are per-run, plus latency and cost per run). */
export const INTERVAL_METRICS: readonly IntervalMetric[] = [
  { key: 'tool_selection_accuracy', shape: 'mean', value: (r) => r.scores.toolSelection },
  { key: 'argument_correctness', shape: 'mean', value: (r) => r.scores.argumentCorrectness },
  { key: 'trajectory_match_rate', shape: 'rate', value: (r) => flag(r.scores.trajectoryMatch) },
  {
    key: 'answer_correctness',
    shape: 'rate',
    // Judge-based when any run was judged (then unjudged runs have no value), as the suite metric.
    value: (r, judged) => (judged ? (r.scores.judgePassed === null ? null : flag(r.scores.judgePassed)) : flag(r.scores.answerCorrectnessDeterministic)),
  },
  { key: 'answer_correctness_deterministic', shape: 'rate', value: (r) => flag(r.scores.answerCorrectnessDeterministic) },
  { key: 'answer_correctness_judge_mean_score', shape: 'mean', value: (r) => r.scores.answerCorrectnessJudge },
  { key: 'faithfulness_mean_score', shape: 'mean', value: (r) => r.scores.faithfulnessJudge },
  { key: 'termination_match_rate', shape: 'rate', value: (r) => flag(r.scores.terminationMatch) },
  { key: 'must_not_call_ok_rate', shape: 'rate', value: (r) => flag(r.scores.mustNotCallOk) },
  { key: 'step_count_ok_rate', shape: 'rate', value: (r) => flag(r.scores.stepCountOk) },
  { key: 'loop_rate', shape: 'rate', value: (r) => flag(r.scores.loopFindings > 0 || r.scores.repeatedIdentical > 0) },
  { key: 'invalid_call_rate', shape: 'rate', value: (r) => flag(r.scores.invalidCalls > 0) },
  { key: 'blocked_call_rate', shape: 'rate', value: (r) => flag(r.scores.blockedCalls > 0) },
  { key: 'compaction_rate', shape: 'rate', value: (r) => flag(r.scores.compactions > 0) },
  { key: 'mean_model_calls', shape: 'mean', value: (r) => r.scores.modelCalls },
  { key: 'mean_input_tokens', shape: 'mean', value: (r) => r.scores.inputTokens },
  { key: 'mean_output_tokens', shape: 'mean', value: (r) => r.scores.outputTokens },
  { key: 'mean_model_latency_ms', shape: 'mean', value: (r) => r.modelLatencyMs },
  { key: 'mean_cost_usd', shape: 'mean', value: (r) => r.scores.costUsd },
];

/** The per-category metrics that get intervals (the report's by_category columns). */
export const CATEGORY_INTERVAL_KEYS = ['tool_selection_accuracy', 'answer_correctness', 'termination_match_rate'] as const;

/** Whether any run of a group was judged (answer_correctness is then the judge's verdict). */
export const anyJudged = (runs: readonly RunPoint[]): boolean => runs.some((r) => r.scores.judgePassed !== null);

/** A metric's values grouped by case (one array per case, its epochs in order), cases in first-seen order. */
export function valuesByCase(runs: readonly RunPoint[], metric: IntervalMetric): Map<string, number[]> {
  const judged = anyJudged(runs);
  const out = new Map<string, number[]>();
  for (const run of runs) {
    const v = metric.value(run, judged);
    if (!out.has(run.caseId)) out.set(run.caseId, []);
    if (v !== null) out.get(run.caseId)!.push(v);
  }
  return out;
}
