/**
 * Fidelity: every one of the 250 reference runs (5 settings x 50 cases) is reproduced by the agent —
 * termination, per-call tokens, each tool record (name, arguments, outcome, quarantined lines) and
 * the final answer — and scored as the reference scored it. Every mismatch is collected and listed.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { jsonEqual } from '../harness/json';
import { resolveConfig } from '../harness/config';
import { createStockroomAgent } from '../stockroom/agent';
import { loadDataset } from '../stockroom/dataset/load-dataset';
import type { Dataset } from '../stockroom/dataset/types';
import { SHARED_DATASET_DIR, warnIfNoSharedDataset } from '../stockroom/testing/shared-dataset';
import { evaluateCase } from './case-scores';
import { loadGoldenFile, type GoldenCase } from './golden';
import { MATRIX_SETTINGS, defaultGoldenPath, settingWeaknesses } from './matrix';
import { summarizeRun } from './run-summary';
import { readReferenceRuns, type ReferenceRun } from './testing/reference-runs';

const show = (v: unknown) => JSON.stringify(v);

describe.skipIf(!warnIfNoSharedDataset())('the 250 reference runs of stockroom-v1 (SPEC.md Appendix A)', () => {
  let dataset: Dataset;
  let cases: GoldenCase[];
  let reference: Record<string, ReferenceRun[]>;

  beforeAll(() => {
    dataset = loadDataset(SHARED_DATASET_DIR);
    cases = loadGoldenFile(defaultGoldenPath(dataset)).cases;
    reference = readReferenceRuns(SHARED_DATASET_DIR);
  });

  it.each(MATRIX_SETTINGS)('reproduces every run and per-case score under %s', async (setting) => {
    const expected = reference[setting];
    expect(expected, `runs.json has no '${setting}' entry`).toBeDefined();
    expect(expected!.map((r) => r.id)).toEqual(cases.map((c) => c.id));

    const agent = await createStockroomAgent({ dataset, config: resolveConfig({ weaknesses: settingWeaknesses(setting) }) });
    const mismatches: string[] = [];
    try {
      for (const [i, golden] of cases.entries()) {
        const ref = expected![i]!;
        const run = await agent.run(golden.query, golden.id);
        const got = summarizeRun(run);
        const differ = (what: string, want: unknown, have: unknown) => {
          if (!jsonEqual(want, have)) mismatches.push(`${setting} ${golden.id} ${what}: expected ${show(want)}, got ${show(have)}`);
        };
        differ('termination', ref.termination, got.terminationReason);
        differ('model_calls', ref.model_calls, got.modelCalls);
        differ('input_tokens_per_call', ref.input_tokens_per_call, got.inputTokensPerCall);
        differ('output_tokens_per_call', ref.output_tokens_per_call, got.outputTokensPerCall);
        differ('tool call count', ref.tool_calls.length, got.toolCalls.length);
        ref.tool_calls.forEach((want, k) => {
          const have = got.toolCalls[k];
          differ(`tool_calls[${k}]`, want, have && { name: have.name, args: have.args, status: have.status, quarantined_lines: have.quarantinedLines });
        });
        differ('final_answer', ref.final_answer, got.finalAnswer);

        const s = await evaluateCase(golden, run, { floatKeys: dataset.floatKeys });
        differ('tool_selection', ref.tool_selection, s.toolSelection);
        differ('judge_passed', ref.judge_passed, s.judgePassed);
        differ('termination_match', ref.termination_match, s.terminationMatch);
        differ('loop', ref.loop, s.loopFindings > 0 || s.repeatedIdentical > 0);
        differ('must_not_call_ok', ref.must_not_call_ok, s.mustNotCallOk);
        differ('facts_missing', ref.facts_missing, s.factsMissing);
        differ('forbidden_found', ref.forbidden_found, s.forbiddenFound);
      }
    } finally {
      await agent.close();
    }
    expect(mismatches, `${mismatches.length} mismatch(es):\n${mismatches.join('\n')}`).toEqual([]);
  });
});
