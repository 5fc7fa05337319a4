/**
 * Intervals and tests on counts: the Wilson score interval for a rate, and the exact two-sided
 * binomial test at p = 1/2 that McNemar's exact test and the sign test both reduce to.
 */

/** The two-sided 95% normal quantile (z at 0.975). */
export const Z_95 = 1.959963984540054;
/** The normal quantile at 0.80 (80% power). */
export const Z_80 = 0.8416212335729143;

export interface Interval {
  low: number;
  high: number;
}

/**
 * Wilson score interval of `successes` out of `n` (n may be an effective, non-integer size);
 * null when n is 0 (no rate to bound).
 */
export function wilsonInterval(successes: number, n: number, z: number = Z_95): Interval | null {
  if (!(n > 0)) return null;
  const p = successes / n;
  const z2 = z * z;
  const denom = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denom;
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / denom;
  // At p = 0 or 1 the bound on that side is exactly 0 or 1 (rounding would leave 1 − 1e-16).
  return { low: successes <= 0 ? 0 : Math.max(0, centre - half), high: successes >= n ? 1 : Math.min(1, centre + half) };
}

/** log(n choose k), by summing logs (n is at most a few thousand here). */
function logChoose(n: number, k: number): number {
  let s = 0;
  for (let i = 1; i <= k; i += 1) s += Math.log(n - k + i) - Math.log(i);
  return s;
}

/**
 * Exact two-sided binomial test of k successes in n trials at p = 1/2: twice the smaller tail,
 * capped at 1. With n = 0 there is no evidence either way: p = 1.
 */
export function binomialTwoSidedHalf(k: number, n: number): number {
  if (n === 0) return 1;
  const tail = Math.min(k, n - k);
  let sum = 0;
  for (let i = 0; i <= tail; i += 1) sum += Math.exp(logChoose(n, i) - n * Math.LN2);
  return Math.min(1, 2 * sum);
}

/**
 * McNemar's exact test on the discordant pairs of a paired pass/fail comparison: `b` cases passed
 * only under the first setting, `c` only under the second.
 */
export function mcnemarExact(b: number, c: number): number {
  return binomialTwoSidedHalf(Math.min(b, c), b + c);
}

/** The sign test on paired differences: zeros dropped, the positives against the negatives. */
export function signTest(differences: readonly number[]): number {
  const pos = differences.filter((d) => d > 0).length;
  const neg = differences.filter((d) => d < 0).length;
  return binomialTwoSidedHalf(Math.min(pos, neg), pos + neg);
}
