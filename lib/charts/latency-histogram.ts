/**
 * Run latency as a small histogram per hour (issue 37): fixed logarithmic buckets, so the hours of any
 * window merge by adding counts and p50/p95 over the window come from the merged buckets, never from
 * averaging hourly percentiles. Each bucket is LATENCY_BUCKET_RATIO wide; a percentile is reported as
 * its bucket's geometric middle, within ±LATENCY_PERCENTILE_ERROR of the true value.
 */

/** Buckets per doubling: each bucket spans 2^(1/4) ≈ 1.19× (a 19% wide bucket). */
export const LATENCY_BUCKETS_PER_DOUBLING = 4;
export const LATENCY_BUCKET_RATIO = 2 ** (1 / LATENCY_BUCKETS_PER_DOUBLING);
/** The most a reported percentile is off: half a bucket, geometrically (≈ ±9%). */
export const LATENCY_PERCENTILE_ERROR = Math.sqrt(LATENCY_BUCKET_RATIO) - 1;
/** The last bucket takes everything from 2^(LAST/4) ms up (≈ 12 days at 160). */
export const LATENCY_LAST_BUCKET = 160;

/** The bucket of a latency in ms: 0 for under 1 ms, then ⌊4·log2(ms)⌋ + 1. */
export function latencyBucket(ms: number): number {
  if (!Number.isFinite(ms) || ms < 1) return 0;
  return Math.min(LATENCY_LAST_BUCKET, Math.floor(Math.log2(ms) * LATENCY_BUCKETS_PER_DOUBLING) + 1);
}

/** The latency a bucket stands for: the geometric middle of its bounds (0.5 ms for bucket 0). */
export function bucketMiddleMs(bucket: number): number {
  if (bucket <= 0) return 0.5;
  const low = 2 ** ((bucket - 1) / LATENCY_BUCKETS_PER_DOUBLING);
  return low * Math.sqrt(LATENCY_BUCKET_RATIO);
}

/** The `p` (0..1) percentile of merged bucket counts; null without any run. Nearest rank. */
export function percentileMs(counts: ReadonlyMap<number, number>, p: number): number | null {
  let total = 0;
  for (const n of counts.values()) total += n;
  if (total === 0) return null;
  const rank = Math.max(1, Math.ceil(p * total));
  let seen = 0;
  for (const bucket of [...counts.keys()].sort((a, b) => a - b)) {
    seen += counts.get(bucket)!;
    if (seen >= rank) return bucketMiddleMs(bucket);
  }
  return null;
}
