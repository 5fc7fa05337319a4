import { describe, expect, it } from 'vitest';
import { parseGuardrails } from '../harness/guardrails/config';
import { guardrailSuggestions, guardrailsOfSwitches } from './guardrail-switches';
import { metricLabel } from './matrix-view';

describe('instructor guardrail switches', () => {
  it('merge into one valid guardrails configuration; none on is empty', () => {
    expect(guardrailsOfSwitches([])).toEqual({});
    const g = parseGuardrails(guardrailsOfSwitches(['no_injection', 'forbid_restock', 'no_pii']));
    expect(g.forbid_tools).toEqual(['create_restock_request']);
    expect(g.detectors).toEqual({ no_injection: { redact: true }, no_pii: { redact: true } });
  });
  it('suggest the cases where the contained weakness moved the switch’s metric, and only those', () => {
    const moved = (caseId: string, metrics: string[]) => ({ caseId, category: null, moved: metrics.map(metricLabel), baselineRunId: null, runId: null });
    const out = guardrailSuggestions({ injection_unguarded: [moved('c1', ['must_not_call_ok_rate']), moved('c2', ['mean_input_tokens'])] });
    expect(out.no_injection!.map((s) => [s.caseId, s.flag])).toEqual([['c1', 'injection_unguarded']]);
    expect(out.no_pii).toBeUndefined();
  });
});
