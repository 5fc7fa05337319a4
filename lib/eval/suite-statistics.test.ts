/**
 * A stored suite's statistics for the pages, with hand-worked values: Wilson's interval of 7 of 10,
 * McNemar's exact p of 0 against 3 and of 0 against 8 discordant pairs with Holm over the cells shown,
 * epochs read from the runs, and exact zero-width figures for the deterministic model.
 */
import { describe, expect, it } from 'vitest';
import { epochsOf, suiteStatistics } from './suite-statistics';
import { point } from './testing/run-points';

const ids = Array.from({ length: 10 }, (_, i) => `C${i}`);
const none = ids.map((id) => point(id));
// three of ten stop ending as expected; eight of ten.
const some = ids.map((id, i) => point(id, { terminationMatch: i >= 3 }));
const most = ids.map((id, i) => point(id, { terminationMatch: i >= 8 }));

describe('suiteStatistics', () => {
  it("gives 7 of 10 Wilson's [0.3968, 0.8922] (z = 1.96, worked by hand) with its n and method", () => {
    const s = suiteStatistics({ none, some }, { base: 'none', deterministic: false, metrics: ['termination_match_rate'] });
    expect(s.intervals.some!.termination_match_rate).toEqual({ value: 0.7, low: 0.3968, high: 0.8922, n: 10, method: 'Wilson score' });
    expect(s.epochs).toBe(1);
    expect(s.cases).toBe(10);
  });

  it('marks 8 discordant pairs lower and 3 not distinguishable: McNemar 2/2^8 and 2/2^3, Holm over the 2 cells shown', () => {
    const s = suiteStatistics({ none, some, most }, { base: 'none', deterministic: false, metrics: ['termination_match_rate'] });
    // p = 2·0.5^8 = 0.0078 → Holm ·2 = 0.0156 < 0.05; p = 2·0.5^3 = 0.25 → max(0.25, 0.0156) = 0.25.
    expect(s.paired.most!.termination_match_rate).toMatchObject({ test: 'mcnemar_exact', p: 0.0078, p_adjusted: 0.0156, verdict: 'lower' });
    expect(s.paired.some!.termination_match_rate).toMatchObject({ test: 'mcnemar_exact', p: 0.25, p_adjusted: 0.25, verdict: 'indistinguishable' });
    expect(s.significance).toEqual({ correction: 'holm', level: 0.05, cells: 2 });
    // Only the metrics shown are compared (the Holm family is what the page shows).
    expect(Object.keys(s.intervals.none!)).toEqual(['termination_match_rate']);
  });

  it('gives every per-category metric its interval over that category alone: 7 of 10 [0.3968, 0.8922], 5 of 5 [0.5655, 1] (Wilson, worked by hand)', () => {
    const lookup = ids.map((id, i) => point(id, { terminationMatch: i >= 3, toolSelection: i % 2 }, 'lookup'));
    const orders = ['O1', 'O2', 'O3', 'O4', 'O5'].map((id) => point(id, {}, 'orders'));
    const s = suiteStatistics({ none: [...lookup, ...orders] }, { base: 'none', deterministic: false, metrics: ['termination_match_rate'] });
    const by = s.byCategory.none!;
    expect(Object.keys(by)).toEqual(['lookup', 'orders']);
    expect(by.lookup!.termination_match_rate).toEqual({ value: 0.7, low: 0.3968, high: 0.8922, n: 10, method: 'Wilson score' });
    // 5 of 5: centre (1 + z²/10)/(1 + z²/5) = 0.7828, half-width (z²/10)/(1 + z²/5) = 0.2172.
    expect(by.orders!.termination_match_rate).toEqual({ value: 1, low: 0.5655, high: 1, n: 5, method: 'Wilson score' });
    // Answer correctness is a rate too; tool selection a mean, bootstrapped over the category's cases.
    expect(by.orders!.answer_correctness).toMatchObject({ value: 1, n: 5, method: 'Wilson score' });
    const tools = by.lookup!.tool_selection_accuracy!;
    expect(tools).toMatchObject({ value: 0.5, n: 10, method: 'percentile bootstrap over cases (2000 resamples)' });
    expect(tools.low).toBeLessThan(0.5);
    expect(tools.high).toBeGreaterThan(0.5);
    expect(by.orders!.tool_selection_accuracy).toMatchObject({ value: 1, low: 1, high: 1 });
  });

  it('clusters the per-category intervals by case with epochs, and makes them exact on the deterministic model', () => {
    const two = ids.flatMap((id, i) => [point(id, { toolSelection: i % 2 }, 'lookup'), point(id, { toolSelection: i % 3 === 0 ? 1 : 0 }, 'lookup')]);
    const s = suiteStatistics({ none: two }, { base: 'none', deterministic: false, metrics: [] });
    expect(s.byCategory.none!.lookup!.tool_selection_accuracy).toMatchObject({ n: 20, method: 'percentile bootstrap over cases, clustered by case (2000 resamples)' });
    expect(s.byCategory.none!.lookup!.termination_match_rate).toMatchObject({ n: 20, method: 'Wilson score, clustered by case (design effect)' });
    const exact = suiteStatistics({ none: two }, { base: 'none', deterministic: true, metrics: [] });
    expect(exact.byCategory.none!.lookup!.tool_selection_accuracy).toMatchObject({ value: 0.45, low: 0.45, high: 0.45, method: 'none: deterministic model, zero width' });
  });

  it('reads the epochs from the runs: three runs of a case are three epochs, clustered', () => {
    const three = ids.flatMap((id, i) => [point(id), point(id, { terminationMatch: i !== 0 }), point(id)]);
    expect(epochsOf({ none: three })).toBe(3);
    const s = suiteStatistics({ none: three }, { base: 'none', deterministic: false, metrics: ['termination_match_rate'] });
    expect(s.epochs).toBe(3);
    expect(s.intervals.none!.termination_match_rate!.method).toBe('Wilson score, clustered by case (design effect)');
    expect(s.intervals.none!.termination_match_rate!.n).toBe(30);
  });

  it('is exact on the deterministic model: zero-width intervals and deltas, no test', () => {
    const s = suiteStatistics({ none, most }, { base: 'none', deterministic: true, metrics: ['termination_match_rate', 'mean_input_tokens'] });
    expect(s.intervals.most!.termination_match_rate).toMatchObject({ value: 0.2, low: 0.2, high: 0.2 });
    expect(s.paired.most!.termination_match_rate).toMatchObject({ delta: -0.8, low: -0.8, high: -0.8, test: 'none_deterministic', p: null, verdict: 'lower' });
    expect(s.paired.most!.mean_input_tokens).toMatchObject({ delta: 0, verdict: 'unchanged' });
  });

  it('pairs nothing when the base setting is absent', () => {
    const s = suiteStatistics({ some }, { base: 'none', deterministic: false, metrics: ['termination_match_rate'] });
    expect(s.base).toBeNull();
    expect(s.paired).toEqual({});
  });
});
