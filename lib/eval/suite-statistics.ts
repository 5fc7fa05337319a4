/**
 * The statistics the pages show for stored suites (issue 35): each setting's 95% intervals of the
 * metrics shown, and each setting against a base setting paired by case — the delta's paired
 * bootstrap interval, the test fit for the metric and Holm's correction over every cell shown. The
 * same functions as the CLI's report and matrix (intervals.ts, paired-deltas.ts), on the same runs,
 * give the same numbers; a deterministic model's intervals and deltas are exact (zero width).
 */
import { INTERVAL_METRICS, type RunPoint } from './interval-metrics';
import { INTERVAL_LEVEL, suiteIntervals, type MetricInterval } from './intervals';
import { pairedDeltas, SIGNIFICANCE_LEVEL, type PairedDelta } from './paired-deltas';

export interface SuiteStatistics {
  level: number;
  /** Runs per case (the most epochs any case was stored with). */
  epochs: number;
  /** True on the deterministic fake model: every interval and delta is exact. */
  deterministic: boolean;
  /** Distinct cases over all settings. */
  cases: number;
  /** The setting the others are paired against (null: nothing is compared). */
  base: string | null;
  /** Per setting, per metric: the mean with its 95% interval, its n (runs with a value) and the method. */
  intervals: Record<string, Record<string, MetricInterval>>;
  /**
   * Per setting, per category (sorted), per category metric (the report's by_category columns: tool
   * selection, answer correctness, termination match): the same intervals over that category's runs.
   */
  byCategory: Record<string, Record<string, Record<string, MetricInterval>>>;
  /** Per setting other than the base, per metric: the paired delta, its test and verdict. */
  paired: Record<string, Record<string, PairedDelta>>;
  /** How the significance marks were decided: Holm over `cells` paired comparisons at `level`. */
  significance: { correction: 'holm'; level: number; cells: number };
}

export interface SuiteStatisticsOptions {
  /** The setting the others are paired against; null or absent from the runs: no pairing. */
  base: string | null;
  deterministic: boolean;
  /** The metrics shown (and compared: the Holm family is settings × metrics). */
  metrics: readonly string[];
}

/** Runs per case: the largest number of runs any case has under any setting (1 for none). */
export function epochsOf(runsBySetting: Readonly<Record<string, readonly RunPoint[]>>): number {
  let most = 1;
  for (const runs of Object.values(runsBySetting)) {
    const per = new Map<string, number>();
    for (const r of runs) per.set(r.caseId, (per.get(r.caseId) ?? 0) + 1);
    for (const n of per.values()) most = Math.max(most, n);
  }
  return most;
}

export function suiteStatistics(runsBySetting: Readonly<Record<string, readonly RunPoint[]>>, options: SuiteStatisticsOptions): SuiteStatistics {
  const epochs = epochsOf(runsBySetting);
  const shown = new Set(options.metrics);
  const intervals: Record<string, Record<string, MetricInterval>> = {};
  const byCategory: Record<string, Record<string, Record<string, MetricInterval>>> = {};
  for (const [setting, runs] of Object.entries(runsBySetting)) {
    const all = suiteIntervals(runs, { epochs, deterministic: options.deterministic });
    intervals[setting] = Object.fromEntries(Object.entries(all.metrics).filter(([k]) => shown.has(k)));
    byCategory[setting] = all.by_category;
  }
  const base = options.base !== null && runsBySetting[options.base] ? options.base : null;
  const metrics = INTERVAL_METRICS.map((m) => m.key).filter((k) => shown.has(k));
  const paired = base === null ? {} : pairedDeltas(runsBySetting, base, { epochs, deterministic: options.deterministic, metrics });
  const cells = Object.values(paired).reduce((n, row) => n + Object.keys(row).length, 0);
  return {
    level: INTERVAL_LEVEL,
    epochs,
    deterministic: options.deterministic,
    cases: new Set(Object.values(runsBySetting).flatMap((runs) => runs.map((r) => r.caseId))).size,
    base,
    intervals,
    byCategory,
    paired,
    significance: { correction: 'holm', level: SIGNIFICANCE_LEVEL, cells },
  };
}
