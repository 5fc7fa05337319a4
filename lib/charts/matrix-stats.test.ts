/** The matrix page's and instructor mode's statistics in words and error bars. */
import { describe, expect, it } from 'vitest';
import type { SuiteStatistics } from '../eval/browser';
import { categoryCellStats, categoryMethodsOf, cellStats, powerHint, significanceNote, withErrorBars } from './matrix-stats';

const stats = (deterministic: boolean): SuiteStatistics => ({
  level: 0.95,
  epochs: 2,
  deterministic,
  cases: 61,
  base: 'none',
  intervals: {
    none: { loop_rate: { value: 0.05, low: 0.02, high: 0.1, n: 122, method: 'Wilson score, clustered by case (design effect)' } },
    naive_retry: { loop_rate: { value: 0.4, low: 0.3, high: 0.52, n: 122, method: 'Wilson score, clustered by case (design effect)' } },
  },
  byCategory: {
    none: { lookup: { answer_correctness: { value: 0.7, low: 0.3968, high: 0.8922, n: 10, method: 'Wilson score' }, tool_selection_accuracy: { value: 0.9, low: 0.8, high: 1, n: 10, method: 'percentile bootstrap over cases (2000 resamples)' } } },
  },
  paired: {
    naive_retry: { loop_rate: { delta: 0.35, low: 0.25, high: 0.45, pairs: 61, test: 'sign', p: 0.0001, p_adjusted: 0.0006, verdict: 'higher', epochs_for_80_power: 1 } },
  },
  significance: { correction: 'holm', level: 0.05, cells: 6 },
});

describe('matrix statistics in words', () => {
  it('gives a cell its interval, its count of runs, and the delta with mark, verdict, test and power', () => {
    const c = cellStats(stats(false), 'naive_retry', 'loop_rate', true)!;
    expect(c).toMatchObject({ interval: '[0.30, 0.52]', n: 122, count: '49 of 122' });
    expect(c.delta).toMatchObject({ interval: '[0.25, 0.45]', mark: '*', verdict: 'higher', words: 'higher than none (significant)', test: 'p = 0.0006 (Holm-adjusted), sign test on case means' });
    expect(c.delta!.power).toBe('2 epochs already give 80% power for a change this size (1 would)');
    expect(cellStats(stats(false), 'none', 'loop_rate', true)!.delta).toBeNull();
    expect(cellStats(stats(false), 'none', 'mean_input_tokens', false)).toBeNull();
  });

  it('gives a per-category cell its interval, n and a rate’s count, and names the methods used there', () => {
    expect(categoryCellStats(stats(false), 'none', 'lookup', 'answer_correctness', true)).toEqual({ interval: '[0.40, 0.89]', n: 10, count: '7 of 10', method: 'Wilson score', delta: null });
    expect(categoryCellStats(stats(false), 'none', 'lookup', 'tool_selection_accuracy', false)).toMatchObject({ interval: '[0.80, 1.00]', n: 10, count: null });
    expect(categoryCellStats(stats(false), 'none', 'refunds', 'answer_correctness', true)).toBeNull();
    expect(categoryMethodsOf(stats(false))).toEqual(['Wilson score', 'percentile bootstrap over cases (2000 resamples)']);
  });

  it('says how many epochs a small change needs, and nothing for an exact or unchanged one', () => {
    expect(powerHint({ epochs_for_80_power: 12, test: 'sign', verdict: 'indistinguishable' }, 2)).toBe('about 12 epochs would detect a change this size at 80% power');
    expect(powerHint({ epochs_for_80_power: 12, test: 'none_deterministic', verdict: 'lower' }, 1)).toBeNull();
    expect(powerHint({ epochs_for_80_power: null, test: 'sign', verdict: 'unchanged' }, 2)).toBeNull();
  });

  it('draws each bar’s interval as an error bar [value − low, high − value]', () => {
    const rows = withErrorBars([{ setting: 'naive_retry', loop_rate: 0.4 }], stats(false), ['loop_rate']);
    expect(rows[0]!.loop_rate__err![0]).toBeCloseTo(0.1, 10);
    expect(rows[0]!.loop_rate__err![1]).toBeCloseTo(0.12, 10);
  });

  it('says a deterministic suite’s differences are exact, and names the correction otherwise', () => {
    expect(significanceNote(stats(true))).toContain('every difference is exact');
    expect(significanceNote(stats(false))).toContain("Holm's correction over 6 comparisons");
    expect(significanceNote(stats(false))).toContain('~ one not distinguishable from none');
  });
});
