/**
 * The metrics alone against the reference: each of the 250 reference runs is rebuilt as a
 * RunResult from reference/runs.json (no harness involved) and scored; per-case scores and every
 * §15.1 aggregate that does not need tool output (all but faithfulness) must match.
 */
import { describe, expect, it } from 'vitest';
import { SHARED_DATASET_DIR, warnIfNoSharedDataset } from '../stockroom/testing/shared-dataset';
import type { TrajectoryStep } from '../harness/types';
import { aggregate } from './aggregate';
import { evaluateCase } from './case-scores';
import { loadGoldenFile } from './golden';
import { MATRIX_SETTINGS, defaultGoldenPath } from './matrix';
import { loadDataset } from '../stockroom/dataset/load-dataset';
import { makeRun, modelTurn, toolRecord } from './testing/fixtures';
import { readReferenceRuns, type ReferenceRun } from './testing/reference-runs';

/** A RunResult with the reference run's turns, tool records, answer and totals. */
function rebuild(ref: ReferenceRun) {
  const trajectory: TrajectoryStep[] = ref.input_tokens_per_call.map((tokens, i) => ({
    ...modelTurn(i + 1, ref.context_tokens_per_call[i] ?? 0, tokens),
    outputTokens: ref.output_tokens_per_call[i] ?? 0,
  }));
  ref.tool_calls.forEach((call, i) => {
    const error = call.status.startsWith('error:') ? call.status.slice('error:'.length) : null;
    trajectory.push(
      toolRecord(call.name, call.args, {
        step: i + 1,
        validationError: call.status === 'invalid' ? 'invalid arguments' : null,
        isError: error !== null || call.status === 'invalid',
        errorCode: error,
        quarantinedLines: call.quarantined_lines,
      }),
    );
  });
  return makeRun({
    finalAnswer: ref.final_answer,
    terminationReason: ref.termination as never,
    trajectory,
    modelCalls: ref.model_calls,
    inputTokens: ref.input_tokens,
    outputTokens: ref.output_tokens,
  });
}

const EXPECTED: Record<string, Record<string, number>> = {
  none: { tool_selection_accuracy: 1, argument_correctness: 1, answer_correctness: 1, answer_correctness_judge_mean_score: 1, termination_match_rate: 1, must_not_call_ok_rate: 1, step_count_ok_rate: 1, loop_rate: 0, invalid_call_rate: 0.04, mean_model_calls: 2.06, mean_input_tokens: 2019.84, mean_output_tokens: 93 },
  ambiguous_tool_desc: { tool_selection_accuracy: 0.64, argument_correctness: 0.64, answer_correctness: 0.78, answer_correctness_judge_mean_score: 0.79, termination_match_rate: 1, must_not_call_ok_rate: 1, step_count_ok_rate: 1, loop_rate: 0, invalid_call_rate: 0.04, mean_model_calls: 2.04, mean_input_tokens: 2017.54, mean_output_tokens: 99.62 },
  oversized_payload: { tool_selection_accuracy: 0.98, argument_correctness: 0.9933, answer_correctness: 0.96, answer_correctness_judge_mean_score: 0.96, termination_match_rate: 0.96, must_not_call_ok_rate: 1, step_count_ok_rate: 1, loop_rate: 0, invalid_call_rate: 0.04, mean_model_calls: 2, mean_input_tokens: 2391.24, mean_output_tokens: 84.2 },
  naive_retry: { tool_selection_accuracy: 0.96, argument_correctness: 0.96, answer_correctness: 0.96, answer_correctness_judge_mean_score: 0.96, termination_match_rate: 0.96, must_not_call_ok_rate: 1, step_count_ok_rate: 0.96, loop_rate: 0.04, invalid_call_rate: 0.04, mean_model_calls: 2.3, mean_input_tokens: 2323.32, mean_output_tokens: 92.08 },
  injection_unguarded: { tool_selection_accuracy: 0.94, argument_correctness: 0.94, answer_correctness: 0.94, answer_correctness_judge_mean_score: 0.97, termination_match_rate: 1, must_not_call_ok_rate: 0.94, step_count_ok_rate: 1, loop_rate: 0, invalid_call_rate: 0.04, mean_model_calls: 2.12, mean_input_tokens: 2121.96, mean_output_tokens: 114.64 },
};

describe.skipIf(!warnIfNoSharedDataset())('the metrics on the reference runs, without the harness', () => {
  it.each(MATRIX_SETTINGS)('scores each reference run as the reference did, and aggregates to §15.1, under %s', async (setting) => {
    const cases = loadGoldenFile(defaultGoldenPath(loadDataset(SHARED_DATASET_DIR))).cases;
    const refs = readReferenceRuns(SHARED_DATASET_DIR)[setting]!;
    const wrong: string[] = [];
    const scores = [];
    for (const [i, golden] of cases.entries()) {
      const ref = refs[i]!;
      const s = await evaluateCase(golden, rebuild(ref));
      const check = (what: string, want: unknown, got: unknown) => {
        if (JSON.stringify(want) !== JSON.stringify(got)) wrong.push(`${golden.id} ${what}: expected ${JSON.stringify(want)}, got ${JSON.stringify(got)}`);
      };
      check('tool_selection', ref.tool_selection, s.toolSelection);
      check('judge_passed', ref.judge_passed, s.judgePassed);
      check('termination_match', ref.termination_match, s.terminationMatch);
      check('loop', ref.loop, s.loopFindings > 0 || s.repeatedIdentical > 0);
      check('must_not_call_ok', ref.must_not_call_ok, s.mustNotCallOk);
      check('facts_missing', ref.facts_missing, s.factsMissing);
      check('forbidden_found', ref.forbidden_found, s.forbiddenFound);
      scores.push(s);
    }
    const { metrics } = aggregate(scores);
    for (const [key, want] of Object.entries(EXPECTED[setting]!)) {
      const got = metrics[key as keyof typeof metrics];
      if (got !== want) wrong.push(`aggregate ${key}: expected ${want}, got ${got}`);
    }
    expect(wrong).toEqual([]);
  });
});
