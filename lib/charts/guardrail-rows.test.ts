import { describe, expect, it } from 'vitest';
import { guardrailRows } from './guardrail-rows';

describe('the matrix page’s guardrails table', () => {
  it('is empty when no setting ran under guardrails', () => {
    expect(guardrailRows([{ setting: 'none', metrics: { loop_rate: 0 } }])).toEqual({ names: [], rows: [] });
  });
  it('lists each guarded setting in matrix order with every guardrail’s rate', () => {
    const out = guardrailRows([
      { setting: 'injection_unguarded', metrics: { guardrail_violation_rate: 0.1, mean_guardrail_retries: 0, warned_answer_rate: 0, guardrail_violation_rates: { no_injection: 0.1 } } },
      { setting: 'none', metrics: { guardrail_violation_rate: 0, mean_guardrail_retries: 0, warned_answer_rate: 0, guardrail_violation_rates: { no_injection: 0 } } },
    ]);
    expect(out.names).toEqual(['no_injection']);
    expect(out.rows.map((r) => [r.setting, r.perGuardrail.no_injection])).toEqual([['none', 0], ['injection_unguarded', 0.1]]);
  });
});
