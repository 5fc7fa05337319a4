import { describe, expect, it } from 'vitest';
import { formatGateMarkdown } from './gate-markdown';
import { guardrailFigureLines } from './guardrail-figures';

const result = { passed: true, checks: [], baselineUsed: true };

describe('the guardrails’ figures in the gate and eval summaries', () => {
  it('say nothing when the suite ran without guardrails, so the gate markdown is as before', () => {
    expect(guardrailFigureLines({ cases: 3, loop_rate: 0 })).toEqual([]);
    expect(formatGateMarkdown(result, { cases: 3, loop_rate: 0 })).toBe(formatGateMarkdown(result));
  });
  it('name the violation rate, retries, warned answers and each guardrail’s rate', () => {
    const metrics = { cases: 4, guardrail_violation_rate: 0.5, mean_guardrail_retries: 0.25, warned_answer_rate: 0, guardrail_violation_rates: { no_injection: 0.25, require_tools: 0.5 } };
    const lines = guardrailFigureLines(metrics);
    expect(lines[0]).toBe('guardrails: violation rate 0.5; mean retries 0.25; answers delivered with warnings 0');
    expect(lines[1]).toContain('no_injection 0.25, require_tools 0.5');
    expect(formatGateMarkdown(result, metrics)).toContain('### Guardrails');
  });
});
