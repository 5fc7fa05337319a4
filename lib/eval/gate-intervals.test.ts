/**
 * The gate's interval rule: a minimum fails only when the upper bound is below it, a maximum only
 * when the lower bound is above it, a drop only when even the upper bound fell too far; zero-width
 * intervals gate exactly as the point rule; the rule is written into the markdown.
 */
import { describe, expect, it } from 'vitest';
import { evaluateGate, GATE_RULE_TEXT, type GateThresholds } from './gate';
import { formatGateMarkdown } from './gate-markdown';

const thresholds: GateThresholds = { version: 1, min: { answer_correctness: 0.85 }, max: { loop_rate: 0.1 }, max_drop: { tool_selection_accuracy: 0.05 } };
const metrics = { cases: 30, answer_correctness: 0.8, loop_rate: 0.12, tool_selection_accuracy: 0.9 };
const baseline = { cases: 30, tool_selection_accuracy: 0.97 };

describe('the gate with intervals', () => {
  it('passes a live run whose intervals still reach the thresholds, where the point rule fails it', () => {
    const intervals = { answer_correctness: { low: 0.62, high: 0.91 }, loop_rate: { low: 0.04, high: 0.27 }, tool_selection_accuracy: { low: 0.84, high: 0.95 } };
    expect(evaluateGate({ metrics, thresholds, baseline }).passed).toBe(false);
    const r = evaluateGate({ metrics, thresholds, baseline, rule: 'interval', intervals });
    expect(r.checks.map((c) => c.passed)).toEqual([true, true, true]);
    expect(r.rule).toBe('interval');
  });

  it("fails on the interval: the minimum's upper bound below, the maximum's lower bound above, the drop past the upper bound", () => {
    const intervals = { answer_correctness: { low: 0.7, high: 0.83 }, loop_rate: { low: 0.11, high: 0.14 }, tool_selection_accuracy: { low: 0.85, high: 0.91 } };
    const r = evaluateGate({ metrics, thresholds, baseline, rule: 'interval', intervals });
    expect(r.passed).toBe(false);
    expect(r.checks.map((c) => [c.metric, c.passed, c.margin])).toEqual([
      ['answer_correctness', false, 0.02],
      ['loop_rate', false, 0.01],
      // 0.97 − 0.91 = 0.06 > 0.05 by 0.01.
      ['tool_selection_accuracy', false, 0.01],
    ]);
    expect(r.checks[0]!.message).toBe('answer_correctness 0.8 [0.7, 0.83] is its upper bound below the minimum 0.85 by 0.02');
  });

  it('gates zero-width intervals (a mock report) exactly as the point rule', () => {
    const zero = Object.fromEntries(Object.entries(metrics).map(([k, v]) => [k, { low: v, high: v }]));
    const point = evaluateGate({ metrics, thresholds, baseline });
    const interval = evaluateGate({ metrics, thresholds, baseline, rule: 'interval', intervals: zero });
    expect(interval.checks.map((c) => [c.passed, c.margin])).toEqual(point.checks.map((c) => [c.passed, c.margin]));
    expect(interval.passed).toBe(point.passed);
  });

  it('compares a metric without an interval as a point, and writes the interval rule into the markdown', () => {
    const r = evaluateGate({ metrics, thresholds, rule: 'interval', intervals: {} });
    expect(r.checks[0]).toMatchObject({ passed: false, margin: 0.05 });
    expect(r.checks[0]!.interval).toBeUndefined();
    expect(formatGateMarkdown(r)).toContain(`Rule: ${GATE_RULE_TEXT.interval}.`);
    expect(formatGateMarkdown(evaluateGate({ metrics, thresholds }))).not.toContain('Rule:');
  });
});
