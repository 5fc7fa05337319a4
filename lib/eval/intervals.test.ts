/**
 * Suite intervals against values worked by hand: Wilson for rates (plain, and with the design effect
 * when a case's epochs agree), zero width for the deterministic model, the bootstrap against the
 * normal-theory interval it approximates for many cases.
 */
import { describe, expect, it } from 'vitest';
import { INTERVAL_METHODS, intraclassCorrelation, suiteIntervals } from './intervals';
import { point } from './testing/run-points';

const cases = (n: number) => Array.from({ length: n }, (_, i) => `C${i}`);

describe('suite intervals', () => {
  it('bounds 8 of 10 terminations with Wilson at [0.4902, 0.9433] (one epoch)', () => {
    const runs = cases(10).map((id, i) => point(id, { terminationMatch: i < 8 }));
    const iv = suiteIntervals(runs, { epochs: 1, deterministic: false }).metrics.termination_match_rate!;
    expect(iv).toMatchObject({ value: 0.8, low: 0.4902, high: 0.9433, n: 10, method: INTERVAL_METHODS.wilson });
  });

  it("counts a case's agreeing epochs once: 4 cases × 2 identical epochs, 3 passing, is Wilson(3, 4) = [0.3006, 0.9544], not Wilson(6, 8)", () => {
    // ICC = 1 (MSB = 0.5, MSW = 0) → design effect 1 + (2 − 1)·1 = 2 → effective n = 8 / 2 = 4.
    const runs = ['A', 'B', 'C', 'D'].flatMap((id) => [0, 1].map(() => point(id, { terminationMatch: id !== 'C' })));
    const iv = suiteIntervals(runs, { epochs: 2, deterministic: false }).metrics.termination_match_rate!;
    expect(iv).toMatchObject({ value: 0.75, low: 0.3006, high: 0.9544, n: 8, method: INTERVAL_METHODS.wilsonClustered });
    // Unclustered it would claim [0.4093, 0.9285].
    expect(iv.low).toBeLessThan(0.4093);
  });

  it('treats epochs that disagree within cases as independent (ICC 0): Wilson(4, 8) for 2 cases × 4 epochs half passing', () => {
    // Each case passes 2 of 4: the case means equal the grand mean, MSB = 0 → ICC clipped to 0.
    expect(intraclassCorrelation([[1, 0, 1, 0], [0, 1, 0, 1]])).toBe(0);
    const runs = ['A', 'B'].flatMap((id) => [0, 1, 2, 3].map((e) => point(id, { terminationMatch: e % 2 === 0 })));
    const iv = suiteIntervals(runs, { epochs: 4, deterministic: false }).metrics.termination_match_rate!;
    // Wilson(4, 8): centre 0.5, half = 1.96·sqrt(0.03125 + 0.015006)/1.48018 = 0.28475 → [0.2152, 0.7848].
    expect(iv).toMatchObject({ low: 0.2152, high: 0.7848 });
  });

  it('gives the deterministic model zero-width intervals that name why', () => {
    const runs = cases(10).map((id, i) => point(id, { terminationMatch: i < 8, inputTokens: 1000 + i * 10 }));
    const s = suiteIntervals(runs, { epochs: 3, deterministic: true });
    for (const iv of Object.values(s.metrics)) {
      expect(iv.low).toBe(iv.value);
      expect(iv.high).toBe(iv.value);
      expect(iv.method).toBe(INTERVAL_METHODS.deterministic);
    }
    expect(s.metrics.mean_input_tokens!.value).toBe(1045);
  });

  it('bootstraps a mean over cases close to the normal-theory interval for many cases', () => {
    // 400 cases with tokens 0..399: mean 199.5, sd = sqrt(400·401/12·... ) = 115.61, se = 5.780 → ±11.33.
    const runs = cases(400).map((id, i) => point(id, { inputTokens: i }));
    const iv = suiteIntervals(runs, { epochs: 1, deterministic: false }).metrics.mean_input_tokens!;
    expect(iv.value).toBe(199.5);
    expect(iv.method).toBe(INTERVAL_METHODS.bootstrap);
    expect(iv.low).toBeGreaterThan(199.5 - 11.33 * 1.1);
    expect(iv.low).toBeLessThan(199.5 - 11.33 * 0.9);
    expect(iv.high).toBeGreaterThan(199.5 + 11.33 * 0.9);
    expect(iv.high).toBeLessThan(199.5 + 11.33 * 1.1);
  });

  it('leaves out runs without a value (no judge: no judge score interval) and gives per-category intervals', () => {
    const runs = [...cases(4).map((id) => point(id, {}, 'a')), ...['X', 'Y'].map((id) => point(id, { toolSelection: 0 }, 'b'))];
    const s = suiteIntervals(runs, { epochs: 1, deterministic: false });
    expect(s.metrics.answer_correctness_judge_mean_score).toBeUndefined();
    expect(Object.keys(s.by_category)).toEqual(['a', 'b']);
    expect(s.by_category.b!.tool_selection_accuracy).toMatchObject({ value: 0, low: 0, high: 0, n: 2 });
    expect(s).toMatchObject({ cases: 6, runs: 6, epochs: 1, level: 0.95 });
  });
});
