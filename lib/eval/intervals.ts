/**
 * 95% intervals of a suite's metrics: Wilson for rates, a percentile bootstrap over cases for means;
 * with epochs > 1 a case's runs are one cluster (the rate's Wilson size shrinks by the design effect,
 * the bootstrap resamples whole cases). A deterministic model (the fake) has no sampling variance:
 * its intervals have zero width and say so. The method is named beside every interval.
 */
import { CATEGORY_INTERVAL_KEYS, INTERVAL_METRICS, valuesByCase, type IntervalMetric, type RunPoint } from './interval-metrics';
import { round4 } from './numbers';
import { wilsonInterval } from './stats/binomial';
import { BOOTSTRAP_RESAMPLES, clusteredBootstrap } from './stats/resampling';

export const INTERVAL_LEVEL = 0.95;

export const INTERVAL_METHODS = {
  deterministic: 'none: deterministic model, zero width',
  wilson: 'Wilson score',
  wilsonClustered: 'Wilson score, clustered by case (design effect)',
  bootstrap: `percentile bootstrap over cases (${BOOTSTRAP_RESAMPLES} resamples)`,
  bootstrapClustered: `percentile bootstrap over cases, clustered by case (${BOOTSTRAP_RESAMPLES} resamples)`,
} as const;

export interface MetricInterval {
  value: number;
  low: number;
  high: number;
  /** Runs with a value. */
  n: number;
  method: string;
}

export interface SuiteIntervals {
  level: number;
  epochs: number;
  cases: number;
  runs: number;
  deterministic: boolean;
  metrics: Record<string, MetricInterval>;
  by_category: Record<string, Record<string, MetricInterval>>;
}

/**
 * The intraclass correlation of clustered values (one-way ANOVA estimator, clipped to [0, 1]); 0 for
 * clusters of one value, where there is nothing to correlate.
 */
export function intraclassCorrelation(clusters: readonly (readonly number[])[]): number {
  const groups = clusters.filter((c) => c.length > 0);
  const n = groups.reduce((s, c) => s + c.length, 0);
  const k = groups.length;
  if (k < 2 || n <= k) return 0;
  const grand = groups.flat().reduce((a, b) => a + b, 0) / n;
  let ssb = 0;
  let ssw = 0;
  for (const c of groups) {
    const m = c.reduce((a, b) => a + b, 0) / c.length;
    ssb += c.length * (m - grand) ** 2;
    for (const v of c) ssw += (v - m) ** 2;
  }
  const msb = ssb / (k - 1);
  const msw = ssw / (n - k);
  // The mean cluster size, adjusted for unequal sizes (n0 of the unbalanced ANOVA).
  const n0 = (n - groups.reduce((s, c) => s + c.length ** 2, 0) / n) / (k - 1);
  const denom = msb + (n0 - 1) * msw;
  if (denom <= 0) return 0;
  return Math.min(1, Math.max(0, (msb - msw) / denom));
}

function metricInterval(metric: IntervalMetric, clusters: number[][], epochs: number, deterministic: boolean, seed: string): MetricInterval | null {
  const values = clusters.flat();
  if (values.length === 0) return null;
  const value = round4(values.reduce((a, b) => a + b, 0) / values.length);
  if (deterministic) return { value, low: value, high: value, n: values.length, method: INTERVAL_METHODS.deterministic };
  const clustered = epochs > 1;
  if (metric.shape === 'rate') {
    const icc = clustered ? intraclassCorrelation(clusters) : 0;
    const meanSize = values.length / clusters.filter((c) => c.length > 0).length;
    const effectiveN = values.length / (1 + (meanSize - 1) * icc);
    const successes = (values.reduce((a, b) => a + b, 0) / values.length) * effectiveN;
    const iv = wilsonInterval(successes, effectiveN)!;
    return { value, low: round4(iv.low), high: round4(iv.high), n: values.length, method: clustered ? INTERVAL_METHODS.wilsonClustered : INTERVAL_METHODS.wilson };
  }
  const iv = clusteredBootstrap(clusters, seed)!;
  return { value, low: round4(iv.low), high: round4(iv.high), n: values.length, method: clustered ? INTERVAL_METHODS.bootstrapClustered : INTERVAL_METHODS.bootstrap };
}

function intervalsOf(runs: readonly RunPoint[], metrics: readonly IntervalMetric[], epochs: number, deterministic: boolean, seed: string): Record<string, MetricInterval> {
  const out: Record<string, MetricInterval> = {};
  for (const metric of metrics) {
    const iv = metricInterval(metric, [...valuesByCase(runs, metric).values()], epochs, deterministic, `${seed}:${metric.key}`);
    if (iv) out[metric.key] = iv;
  }
  return out;
}

export interface SuiteIntervalOptions {
  epochs: number;
  /** True for the deterministic fake model: every interval has zero width. */
  deterministic: boolean;
  /** Seeds the bootstrap (the same seed, the same interval). */
  seed?: string;
}

/** The 95% intervals of every per-run metric, overall and per category (categories sorted by name). */
export function suiteIntervals(runs: readonly RunPoint[], options: SuiteIntervalOptions): SuiteIntervals {
  const seed = options.seed ?? 'intervals';
  const categories = [...new Set(runs.map((r) => r.category))].sort();
  const categoryMetrics = INTERVAL_METRICS.filter((m) => (CATEGORY_INTERVAL_KEYS as readonly string[]).includes(m.key));
  return {
    level: INTERVAL_LEVEL,
    epochs: options.epochs,
    cases: new Set(runs.map((r) => r.caseId)).size,
    runs: runs.length,
    deterministic: options.deterministic,
    metrics: intervalsOf(runs, INTERVAL_METRICS, options.epochs, options.deterministic, seed),
    by_category: Object.fromEntries(
      categories.map((c) => [c, intervalsOf(runs.filter((r) => r.category === c), categoryMetrics, options.epochs, options.deterministic, `${seed}:${c}`)]),
    ),
  };
}
