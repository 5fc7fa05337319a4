/**
 * The statistics against values worked by hand from the textbook formulas (each expected figure is
 * derived in the comment beside it), never against the code's own output.
 */
import { describe, expect, it } from 'vitest';
import { binomialTwoSidedHalf, mcnemarExact, signTest, wilsonInterval } from './binomial';
import { holmAdjust } from './multiple';
import { epochsToDetect } from './power';
import { clusteredBootstrap, pairedPermutationTest, quantileSorted } from './resampling';
import { seededRandom } from '../../harness';

describe('Wilson score interval', () => {
  it('bounds 8 of 10 at [0.4902, 0.9433]', () => {
    // z² = 3.8415; denom = 1 + 0.38415 = 1.38415; centre = (0.8 + 0.19207) / 1.38415 = 0.71674;
    // half = 1.96 · sqrt(0.016 + 0.0096036) / 1.38415 = 0.22658 → [0.49016, 0.94332].
    const iv = wilsonInterval(8, 10)!;
    expect(iv.low).toBeCloseTo(0.49016, 4);
    expect(iv.high).toBeCloseTo(0.94332, 4);
  });

  it('bounds 0 of 10 at [0, 0.2775] and 10 of 10 at [0.7225, 1] (never outside [0, 1])', () => {
    // p = 0: centre = half = 0.19207 / 1.38415 = 0.13876 → high 0.27753; by symmetry 10/10 → low 0.72247.
    expect(wilsonInterval(0, 10)!.low).toBe(0);
    expect(wilsonInterval(0, 10)!.high).toBeCloseTo(0.27753, 4);
    expect(wilsonInterval(10, 10)!.low).toBeCloseTo(0.72247, 4);
    expect(wilsonInterval(10, 10)!.high).toBe(1);
  });

  it('has no interval for no trials', () => {
    expect(wilsonInterval(0, 0)).toBeNull();
  });
});

describe('exact binomial, McNemar and sign tests', () => {
  it('gives McNemar p = 18/256 for 1 against 7 discordant pairs', () => {
    // P(X ≤ 1 | n = 8, ½) = (1 + 8) / 256; two-sided: 18 / 256 = 0.0703125.
    expect(mcnemarExact(1, 7)).toBeCloseTo(0.0703125, 10);
    expect(mcnemarExact(7, 1)).toBeCloseTo(0.0703125, 10);
  });

  it('caps the two-sided p at 1 for a balanced split and gives 1 with no discordant pair', () => {
    expect(binomialTwoSidedHalf(5, 10)).toBe(1);
    expect(mcnemarExact(0, 0)).toBe(1);
  });

  it('gives 2/1024 for 10 of 10 positive differences, ignoring zeros', () => {
    // Both tails of Binomial(10, ½): 2 · (½)^10.
    expect(signTest([1, 2, 0, 0.5, 3, 1, 1, 1, 2, 1, 4, 0])).toBeCloseTo(2 / 1024, 12);
  });
});

describe('paired permutation test', () => {
  it('enumerates the 8 sign assignments of [1, 2, 3]: only the two all-same-sign ones reach |6|', () => {
    expect(pairedPermutationTest([1, 2, 3], 's')).toBeCloseTo(2 / 8, 12);
  });

  it('counts ties with the observed sum as extreme: [1, 1] → 2 of 4', () => {
    // Sums over (±1, ±1): 2, 0, 0, −2; |sum| ≥ 2 for two of four.
    expect(pairedPermutationTest([1, 1], 's')).toBeCloseTo(0.5, 12);
  });

  it('is 1 when every difference is zero', () => {
    expect(pairedPermutationTest([0, 0, 0], 's')).toBe(1);
  });

  it('estimates with seeded flips past 16 cases, near the exact binomial value for ±1 differences', () => {
    // 20 differences of +1: only the two constant sign patterns reach |20| → exact p = 2 / 2^20 ≈ 0;
    // with 10,000 flips the estimate is (0 + 1) / 10,001.
    const p = pairedPermutationTest(Array.from({ length: 20 }, () => 1), 'seed');
    expect(p).toBeCloseTo(1 / 10001, 8);
    expect(pairedPermutationTest(Array.from({ length: 20 }, () => 1), 'seed')).toBe(p);
  });
});

describe('Holm correction', () => {
  it('adjusts [0.01, 0.04, 0.03] to [0.03, 0.06, 0.06]', () => {
    // Sorted: 0.01·3 = 0.03; 0.03·2 = 0.06; 0.04·1 = 0.04 → max(0.06, 0.04) = 0.06.
    const adj = holmAdjust([0.01, 0.04, 0.03]);
    expect(adj[0]).toBeCloseTo(0.03, 12);
    expect(adj[1]).toBeCloseTo(0.06, 12);
    expect(adj[2]).toBeCloseTo(0.06, 12);
  });

  it('never exceeds 1', () => {
    expect(holmAdjust([0.6, 0.7])).toEqual([1, 1]);
  });
});

describe('bootstrap over cases', () => {
  it('has zero width when every value is equal', () => {
    expect(clusteredBootstrap([[1, 1], [1, 1], [1]], 's')).toEqual({ low: 1, high: 1 });
  });

  it('stays within the range of the case means and brackets the mean', () => {
    const clusters = [[0, 0, 0], [1, 1, 1], [0, 1, 0], [1, 1, 0]];
    const iv = clusteredBootstrap(clusters, 's')!;
    expect(iv.low).toBeGreaterThanOrEqual(0);
    expect(iv.high).toBeLessThanOrEqual(1);
    expect(iv.low).toBeLessThan(0.5);
    expect(iv.high).toBeGreaterThan(0.5);
  });

  it('gives the same interval for the same seed', () => {
    const clusters = [[3], [5], [9], [1], [4]];
    expect(clusteredBootstrap(clusters, 'a')).toEqual(clusteredBootstrap(clusters, 'a'));
  });

  it('interpolates quantiles as R type 7: the 0.25 quantile of [1, 2, 3, 4] is 1.75', () => {
    expect(quantileSorted([1, 2, 3, 4], 0.25)).toBeCloseTo(1.75, 12);
  });
});

describe('power hint', () => {
  it('asks 5 epochs of 10 cases for a delta of 0.2 with a run sd of 0.5', () => {
    // (1.95996 + 0.84162)² · 0.25 / 0.04 = 7.84887 · 6.25 = 49.06 runs; over 10 cases ceil(4.906) = 5.
    expect(epochsToDetect(0.2, 0.5, 10)).toBe(5);
  });

  it('has no hint for a zero delta', () => {
    expect(epochsToDetect(0, 0.5, 10)).toBeNull();
  });
});

describe('seeded generator', () => {
  it('repeats its sequence for the same seed and differs for another', () => {
    const a = seededRandom('x');
    const b = seededRandom('x');
    const c = seededRandom('y');
    const seqA = [a(), a(), a()];
    expect([b(), b(), b()]).toEqual(seqA);
    expect([c(), c(), c()]).not.toEqual(seqA);
    expect(seqA.every((v) => v >= 0 && v < 1)).toBe(true);
  });
});
