/**
 * Resampling over cases: the percentile bootstrap of a mean clustered by case (a case's epochs move
 * together), the paired bootstrap of a difference, and the paired sign-flip permutation test.
 * Every draw comes from a seeded generator, so the same inputs and seed give the same interval.
 */
import type { Interval } from './binomial';
import { hashSeed } from '../../harness';

/** Bootstrap resamples per interval. */
export const BOOTSTRAP_RESAMPLES = 2000;
/** Random sign flips of the permutation test when the exact enumeration is too large. */
export const PERMUTATION_RESAMPLES = 10000;
/** Cases up to which the permutation test enumerates every sign assignment (2^16 = 65,536). */
export const EXACT_PERMUTATION_MAX_CASES = 16;

/** The linear-interpolated quantile of sorted values (type 7, as R and NumPy default). */
export function quantileSorted(sorted: ArrayLike<number>, q: number): number {
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo);
}

/**
 * 95% percentile bootstrap of the mean over runs, resampling whole cases (each cluster is one case's
 * values over its epochs). Zero width when every value is equal; null with no values.
 */
export function clusteredBootstrap(clusters: readonly (readonly number[])[], seed: string, resamples: number = BOOTSTRAP_RESAMPLES): Interval | null {
  const nonEmpty = clusters.filter((c) => c.length > 0);
  if (nonEmpty.length === 0) return null;
  const sums = nonEmpty.map((c) => c.reduce((a, b) => a + b, 0));
  const counts = nonEmpty.map((c) => c.length);
  const all = nonEmpty.flat();
  if (all.every((v) => v === all[0])) return { low: all[0]!, high: all[0]! };
  // Typed arrays, and seededRandom's generator inlined: the resample loop runs 2,000 × cases times per
  // interval, a matrix's statistics a hundred intervals, and a call per draw cost more than the draw.
  // The draws are seededRandom(seed)'s, in order (resampling.test.ts checks it).
  let state = hashSeed(seed);
  const k = nonEmpty.length;
  const sumOf = Float64Array.from(sums);
  const countOf = Float64Array.from(counts);
  const stats = new Float64Array(resamples);
  for (let r = 0; r < resamples; r += 1) {
    let sum = 0;
    let count = 0;
    for (let i = 0; i < k; i += 1) {
      state = (state + 0x6d2b79f5) >>> 0;
      let t = state;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      const j = Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * k);
      sum += sumOf[j]!;
      count += countOf[j]!;
    }
    stats[r] = sum / count;
  }
  // Float64Array sorts numerically, without a comparator call per comparison.
  stats.sort();
  return { low: quantileSorted(stats, 0.025), high: quantileSorted(stats, 0.975) };
}

/** 95% paired bootstrap of the mean of per-case differences (resampling cases). */
export function pairedBootstrap(differences: readonly number[], seed: string, resamples: number = BOOTSTRAP_RESAMPLES): Interval | null {
  return clusteredBootstrap(differences.map((d) => [d]), seed, resamples);
}

/**
 * Two-sided paired permutation test of a mean difference: under the null each case's difference is
 * as likely negative as positive. Exact over all 2^n sign assignments up to
 * EXACT_PERMUTATION_MAX_CASES cases, else seeded random flips with the (count + 1) / (R + 1) estimate.
 */
export function pairedPermutationTest(differences: readonly number[], seed: string, resamples: number = PERMUTATION_RESAMPLES): number {
  const d = differences.filter((x) => x !== 0);
  if (d.length === 0) return 1;
  // A tolerance keeps floating-point ties with the observed sum counted as "as extreme".
  const observed = Math.abs(d.reduce((a, b) => a + b, 0)) - 1e-12;
  if (d.length <= EXACT_PERMUTATION_MAX_CASES) {
    let extreme = 0;
    const total = 2 ** d.length;
    for (let mask = 0; mask < total; mask += 1) {
      let s = 0;
      for (let i = 0; i < d.length; i += 1) s += mask & (1 << i) ? -d[i]! : d[i]!;
      if (Math.abs(s) >= observed) extreme += 1;
    }
    return extreme / total;
  }
  // seededRandom(seed)'s draws with its generator inlined, as in clusteredBootstrap.
  let state = hashSeed(seed);
  const values = Float64Array.from(d);
  let extreme = 0;
  for (let r = 0; r < resamples; r += 1) {
    let s = 0;
    for (let i = 0; i < values.length; i += 1) {
      state = (state + 0x6d2b79f5) >>> 0;
      let t = state;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      const x = values[i]!;
      s += ((t ^ (t >>> 14)) >>> 0) / 4294967296 < 0.5 ? -x : x;
    }
    if (Math.abs(s) >= observed) extreme += 1;
  }
  return (extreme + 1) / (resamples + 1);
}
