import { describe, expect, it } from 'vitest';
import { EvalFileError } from './errors';
import { DEFAULT_THRESHOLDS_PATH, evaluateGate, loadThresholds, movedGateMetrics, parseThresholds, type GateThresholds } from './gate';
import { formatGateMarkdown } from './gate-markdown';

const thresholds: GateThresholds = loadThresholds(DEFAULT_THRESHOLDS_PATH);

const passing = {
  cases: 50,
  tool_selection_accuracy: 1,
  argument_correctness: 1,
  answer_correctness: 1,
  must_not_call_ok_rate: 1,
  termination_match_rate: 1,
  loop_rate: 0,
};

describe('the repository thresholds', () => {
  it('hold the published gate', () => {
    expect(thresholds).toEqual({
      version: 1,
      min: { tool_selection_accuracy: 0.85, answer_correctness: 0.85, must_not_call_ok_rate: 1, termination_match_rate: 0.9 },
      max: { loop_rate: 0.1 },
      max_drop: { tool_selection_accuracy: 0.05, answer_correctness: 0.05, argument_correctness: 0.05 },
    });
  });
});

describe('parseThresholds', () => {
  it('refuses an unknown version, an unknown key or an unknown metric', () => {
    expect(() => parseThresholds('{"version": 2}', 't.json')).toThrow(EvalFileError);
    expect(() => parseThresholds('{"version": 1, "minimum": {}}', 't.json')).toThrow(/minimum/);
    expect(() => parseThresholds('{"version": 1, "min": {"tool_selection_acuracy": 0.9}}', 't.json')).toThrow(/tool_selection_acuracy/);
    expect(() => parseThresholds('{"version": 1, "min": {"loop_rate": "low"}}', 't.json')).toThrow(/min\.loop_rate/);
    expect(() => parseThresholds('{', 't.json')).toThrow(/not valid JSON/);
  });
});

describe('evaluateGate', () => {
  it('passes the default run and lists every check', () => {
    const result = evaluateGate({ metrics: passing, thresholds });
    expect(result.passed).toBe(true);
    expect(result.baselineUsed).toBe(false);
    expect(result.checks.map((c) => `${c.kind}:${c.metric}`)).toEqual([
      'min:tool_selection_accuracy',
      'min:answer_correctness',
      'min:must_not_call_ok_rate',
      'min:termination_match_rate',
      'max:loop_rate',
    ]);
  });

  it('accepts a value exactly at its threshold', () => {
    const result = evaluateGate({ metrics: { ...passing, termination_match_rate: 0.9, loop_rate: 0.1 }, thresholds });
    expect(result.passed).toBe(true);
  });

  it('fails a low minimum and a high maximum, saying by how much', () => {
    const result = evaluateGate({ metrics: { ...passing, answer_correctness: 0.78, loop_rate: 0.14 }, thresholds });
    expect(result.passed).toBe(false);
    const failed = result.checks.filter((c) => !c.passed);
    expect(failed.map((c) => [c.metric, c.value, c.threshold, c.margin])).toEqual([
      ['answer_correctness', 0.78, 0.85, 0.07],
      ['loop_rate', 0.14, 0.1, 0.04],
    ]);
    expect(failed[0]?.message).toBe('answer_correctness 0.78 is below the minimum 0.85 by 0.07');
  });

  it('fails a metric missing from the report', () => {
    const { loop_rate: _dropped, ...metrics } = passing;
    const result = evaluateGate({ metrics, thresholds });
    const check = result.checks.find((c) => c.metric === 'loop_rate');
    expect(check).toMatchObject({ passed: false, value: null, margin: null, message: 'loop_rate is missing from the report' });
    expect(result.passed).toBe(false);
  });

  it('fails a drop from the baseline beyond max_drop even when the minimums pass', () => {
    const baseline = { ...passing, tool_selection_accuracy: 0.98, argument_correctness: 0.95 };
    const metrics = { ...passing, tool_selection_accuracy: 0.9, argument_correctness: 0.9 };
    const result = evaluateGate({ metrics, thresholds, baseline });
    expect(result.baselineUsed).toBe(true);
    const drops = result.checks.filter((c) => c.kind === 'max_drop');
    expect(drops.map((c) => [c.metric, c.passed, c.margin])).toEqual([
      ['tool_selection_accuracy', false, 0.03],
      ['answer_correctness', true, 0],
      // 0.95 − 0.9 is 0.04999… in binary; the drop is compared at 4 decimals, so exactly 0.05 passes.
      ['argument_correctness', true, 0],
    ]);
    expect(drops[0]?.message).toBe(
      'tool_selection_accuracy 0.9 dropped 0.08 from the baseline 0.98, 0.03 more than the allowed 0.05',
    );
    expect(result.passed).toBe(false);
  });

  it('fails a drop check when the baseline lacks the metric', () => {
    const { argument_correctness: _dropped, ...baseline } = passing;
    const result = evaluateGate({ metrics: passing, thresholds, baseline });
    expect(result.checks.find((c) => c.kind === 'max_drop' && c.metric === 'argument_correctness')).toMatchObject({
      passed: false,
      message: 'argument_correctness is missing from the baseline',
    });
  });
});

describe('formatGateMarkdown', () => {
  it('shows the verdict, a row per check and the failures', () => {
    const md = formatGateMarkdown(evaluateGate({ metrics: { ...passing, answer_correctness: 0.78 }, thresholds }));
    expect(md).toContain('## Evaluation gate: FAILED');
    expect(md).toContain('| answer_correctness | ≥ 0.85 | 0.78 | — | **fail** | 0.07 |');
    expect(md).toContain('- answer_correctness 0.78 is below the minimum 0.85 by 0.07');
    expect(md).toContain('drop checks were not run');
    expect(formatGateMarkdown(evaluateGate({ metrics: passing, thresholds }))).toContain('## Evaluation gate: PASSED');
  });
});

describe('movedGateMetrics', () => {
  it('lists the gate-bounded metrics whose values differ, and ignores metrics the gate does not bound', () => {
    const thresholds = parseThresholds(
      JSON.stringify({ version: 1, min: { tool_selection_accuracy: 0.85, answer_correctness: 0.85 }, max: { loop_rate: 0.1 } }),
      'inline',
    );
    const base = { cases: 2, tool_selection_accuracy: 1, answer_correctness: 1, loop_rate: 0, mean_input_tokens: 100 };
    expect(movedGateMetrics(thresholds, base, { ...base, mean_input_tokens: 900 })).toEqual([]);
    expect(movedGateMetrics(thresholds, base, { ...base, answer_correctness: 0.5, loop_rate: 0.5 })).toEqual(['answer_correctness', 'loop_rate']);
  });
});
