import { describe, expect, it } from 'vitest';
import { tokenSeries } from './replay-timeline';
import { thinTokenSeries, thinnedCall, TOKEN_CHART_MAX_POINTS } from './token-series-thin';

const calls = (n: number, tokens: (i: number) => number | null = () => 100) =>
  Array.from({ length: n }, (_, i) => ({ step: i + 1, inputTokens: tokens(i), outputTokens: tokens(i) === null ? null : 10 }));

describe('thinTokenSeries', () => {
  it('keeps a run of up to the limit exactly as it was, one call per point', () => {
    const series = tokenSeries(calls(TOKEN_CHART_MAX_POINTS), null);
    const thin = thinTokenSeries(series);
    expect(thin.perPoint).toBe(1);
    expect(thin.points).toEqual(series.map((p) => ({ ...p, lastCall: p.call })));
  });

  it('groups 2,500 calls into at most the limit, covering every call once and in order', () => {
    const thin = thinTokenSeries(tokenSeries(calls(2_500), null));
    expect(thin.points.length).toBeLessThanOrEqual(TOKEN_CHART_MAX_POINTS);
    expect(thin.perPoint).toBe(11);
    expect(thin.points[0]).toMatchObject({ call: 1, lastCall: 11 });
    expect(thin.points.at(-1)!.lastCall).toBe(2_500);
    for (let i = 1; i < thin.points.length; i++) expect(thin.points[i]!.call).toBe(thin.points[i - 1]!.lastCall + 1);
  });

  it('draws a group as its largest call and the running total at its last call', () => {
    const series = tokenSeries(calls(10, (i) => (i === 6 ? 5_000 : i === 8 ? null : 100)), null);
    const thin = thinTokenSeries(series, 2);
    expect(thin.points).toHaveLength(2);
    expect(thin.points[1]).toMatchObject({ call: 6, lastCall: 10, inputTokens: 5_000, cumulativeTokens: series[9]!.cumulativeTokens });
  });

  it('leaves a group whose calls reported no usage without a bar, never a 0 bar', () => {
    const thin = thinTokenSeries(tokenSeries(calls(4, (i) => (i < 2 ? null : 50)), null), 2);
    expect(thin.points[0]!.inputTokens).toBeNull();
    expect(thin.points[1]!.inputTokens).toBe(50);
  });

  it('refuses a limit that is not a positive integer, naming it', () => {
    expect(() => thinTokenSeries([], 0)).toThrow(/max must be a positive integer; got 0/);
  });
});

describe('thinnedCall', () => {
  it('marks the group that holds the current call, and nothing without one', () => {
    const thin = thinTokenSeries(tokenSeries(calls(100), null), 10);
    expect(thinnedCall(thin, 1)).toBe(1);
    expect(thinnedCall(thin, 25)).toBe(21);
    expect(thinnedCall(thin, 100)).toBe(91);
    expect(thinnedCall(thin, 101)).toBeNull();
    expect(thinnedCall(thin, null)).toBeNull();
  });
});
