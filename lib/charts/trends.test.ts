import { describe, expect, it } from 'vitest';
import { latencyBucket } from './latency-histogram';
import { pointRunsHref, prepareTrends, windowOf } from './trends';

const h = (iso: string, value: string, termination: string, runs: number, extra: Partial<{ costUsd: number; costUnknownRuns: number; unreportedCalls: number }> = {}) => ({
  hour: new Date(iso), value, termination, runs, inputTokens: 100 * runs, outputTokens: 10 * runs, unreportedCalls: 0, costUsd: 0.01 * runs, costUnknownRuns: 0, guardrailFindings: 0, ...extra,
});

describe('the dashboard shaped from the hourly rollup', () => {
  const w = windowOf('24h', new Date('2026-12-07T10:30:00Z'));

  it('puts each hour in its point, the busiest series first, and keeps unknown cost apart', () => {
    const t = prepareTrends(
      {
        hours: [h('2026-12-07T09:00:00Z', 'm1', 'COMPLETED', 3), h('2026-12-07T09:00:00Z', 'm1', 'MODEL_ERROR', 1, { costUnknownRuns: 1, costUsd: 0, unreportedCalls: 2 }), h('2026-12-07T10:00:00Z', 'm2', 'COMPLETED', 1)],
        latency: [{ hour: new Date('2026-12-07T09:00:00Z'), value: 'm1', bucket: latencyBucket(1000), count: 4 }],
        scores: [{ hour: new Date('2026-12-07T09:00:00Z'), value: 'm1', evaluator: 'judge', sum: 3, count: 4 }],
      },
      w,
    );
    expect(t.series.map((s) => [s.value, s.runs])).toEqual([['m1', 4], ['m2', 1]]);
    expect(t.series[0]!.points).toHaveLength(24);
    const nine = t.series[0]!.points.find((p) => p.from === '2026-12-07T09:00:00.000Z')!;
    expect(nine).toMatchObject({ runs: 4, terminations: { COMPLETED: 3, MODEL_ERROR: 1 }, costUnknownRuns: 1, unreportedCalls: 2, scores: { judge: 0.75 } });
    expect(nine.p50Ms).toBeGreaterThan(900);
    expect(nine.p50Ms).toBeLessThan(1100);
    // An hour without runs has no percentile and no mean score (unknown, not 0).
    const empty = t.series[0]!.points.find((p) => p.from === '2026-12-07T08:00:00.000Z')!;
    expect(empty).toMatchObject({ runs: 0, p50Ms: null, scores: { judge: null } });
  });

  it('links a point to the runs behind it', () => {
    expect(pointRunsHref('model', 'openai:gpt', { from: '2026-12-07T09:00:00.000Z', before: '2026-12-07T10:00:00.000Z' }, { termination: 'MODEL_ERROR' })).toBe(
      '/runs?from=2026-12-07T09%3A00%3A00.000Z&before=2026-12-07T10%3A00%3A00.000Z&model=openai%3Agpt&termination=MODEL_ERROR',
    );
  });
});
