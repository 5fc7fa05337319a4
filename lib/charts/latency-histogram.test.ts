import { describe, expect, it } from 'vitest';
import { LATENCY_PERCENTILE_ERROR, latencyBucket, percentileMs } from './latency-histogram';

describe('latency from hourly histograms', () => {
  it('gives p50 and p95 of merged hours within the stated bucket error of the exact nearest-rank value', () => {
    // Two "hours" of runs with very different latencies; merged by adding bucket counts.
    const hourA = Array.from({ length: 500 }, (_, i) => 40 + i * 3.7);
    const hourB = Array.from({ length: 300 }, (_, i) => 900 + i * 41);
    const all = [...hourA, ...hourB].sort((a, b) => a - b);
    const merged = new Map<number, number>();
    for (const ms of all) merged.set(latencyBucket(ms), (merged.get(latencyBucket(ms)) ?? 0) + 1);
    for (const p of [0.5, 0.95]) {
      const exact = all[Math.ceil(p * all.length) - 1]!;
      const got = percentileMs(merged, p)!;
      expect(Math.abs(got - exact) / exact).toBeLessThanOrEqual(LATENCY_PERCENTILE_ERROR + 1e-9);
    }
  });

  it('has no percentile without runs, and puts sub-millisecond runs in bucket 0', () => {
    expect(percentileMs(new Map(), 0.5)).toBeNull();
    expect(latencyBucket(0.2)).toBe(0);
    expect(latencyBucket(1)).toBe(1);
  });
});
