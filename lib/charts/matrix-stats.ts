/**
 * A suite's statistics (lib/eval suiteStatistics, read from /api/suites/[id]/statistics) shaped for
 * the matrix page and instructor mode: a cell's interval, n and method in words, a delta's mark and
 * verdict (Holm-corrected), the epochs that would detect the delta at 80% power, and the error bars
 * of the charts. Pure and browser-safe.
 */
import { deltaMark, formatInterval, VERDICT_WORDS, type PairedDelta, type SuiteStatistics } from '../eval/browser';

export interface CellStats {
  /** `[0.81, 0.98]`, or null when the metric has no interval. */
  interval: string | null;
  /** Runs with a value. */
  n: number | null;
  /** A rate's runs as a count: "3 of 61" (null for a mean). */
  count: string | null;
  method: string | null;
  /** The delta against the base: its interval, mark (`*`, `~`, `=`, or '' when exact), verdict words and power hint; null for the base itself. */
  delta: {
    interval: string;
    mark: string;
    verdict: PairedDelta['verdict'];
    words: string;
    /** "p = 0.012 (Holm-adjusted), McNemar's exact test", or "exact: deterministic model". */
    test: string;
    /** "about 12 epochs would detect a change this size at 80% power" (null when exact, unchanged, or not estimable). */
    power: string | null;
  } | null;
}

const TEST_WORDS: Record<PairedDelta['test'], string> = {
  mcnemar_exact: "McNemar's exact test",
  sign: 'sign test on case means',
  permutation: 'paired permutation test',
  none_deterministic: 'exact: deterministic model',
};

/** The epochs hint of a delta in words. */
export function powerHint(d: Pick<PairedDelta, 'epochs_for_80_power' | 'test' | 'verdict'>, epochs: number): string | null {
  if (d.test === 'none_deterministic' || d.verdict === 'unchanged' || d.epochs_for_80_power === null) return null;
  const n = d.epochs_for_80_power;
  if (n <= epochs) return `${epochs} epoch${epochs === 1 ? '' : 's'} already give 80% power for a change this size (${n} would)`;
  return `about ${n} epochs would detect a change this size at 80% power`;
}

/** A cell's statistics, or null when the suite has none for it. `rate`: the metric is a share of runs (its n reads as a count). */
export function cellStats(stats: SuiteStatistics | null | undefined, setting: string, metric: string, rate: boolean): CellStats | null {
  const iv = stats?.intervals[setting]?.[metric];
  if (!stats || !iv) return null;
  const d = stats.paired[setting]?.[metric];
  return {
    interval: formatInterval(iv),
    n: iv.n,
    count: rate ? `${Math.round(iv.value * iv.n)} of ${iv.n}` : null,
    method: iv.method,
    delta: d
      ? {
          interval: formatInterval(d),
          mark: deltaMark(d),
          verdict: d.verdict,
          words: VERDICT_WORDS[d.verdict],
          test: d.test === 'none_deterministic' ? TEST_WORDS.none_deterministic : `p = ${d.p_adjusted ?? d.p ?? '—'} (Holm-adjusted), ${TEST_WORDS[d.test]}`,
          power: powerHint(d, stats.epochs),
        }
      : null,
  };
}

/**
 * A per-category cell's statistics (its interval over that category's runs, n, a rate's count and the
 * method), or null when the suite has none for it. No delta: the per-category table compares no pairs.
 */
export function categoryCellStats(stats: SuiteStatistics | null | undefined, setting: string, category: string, metric: string, rate: boolean): CellStats | null {
  const iv = stats?.byCategory?.[setting]?.[category]?.[metric];
  if (!stats || !iv) return null;
  return { interval: formatInterval(iv), n: iv.n, count: rate ? `${Math.round(iv.value * iv.n)} of ${iv.n}` : null, method: iv.method, delta: null };
}

/** The interval methods of the per-category figures, each once (for the note under that table). */
export function categoryMethodsOf(stats: SuiteStatistics | null | undefined): string[] {
  const out = new Set<string>();
  for (const cats of Object.values(stats?.byCategory ?? {})) for (const row of Object.values(cats)) for (const iv of Object.values(row)) out.add(iv.method);
  return [...out];
}

/** The interval methods a suite's figures use, each once (for the note under a table). */
export function methodsOf(stats: SuiteStatistics | null | undefined, metrics: readonly string[]): string[] {
  if (!stats) return [];
  const out = new Set<string>();
  for (const row of Object.values(stats.intervals)) for (const m of metrics) if (row[m]) out.add(row[m].method);
  return [...out];
}

/** One sentence on what the marks mean and how they were decided. */
export function significanceNote(stats: SuiteStatistics): string {
  if (stats.deterministic) return 'The fake model is deterministic: every interval has zero width and every difference is exact, so no test is needed.';
  return `Deltas against ${stats.base ?? 'the base'} are paired by case (95% paired bootstrap interval); * marks a difference distinguishable from ${stats.base ?? 'the base'} after Holm's correction over ${stats.significance.cells} comparisons at ${stats.significance.level}, ~ one not distinguishable from ${stats.base ?? 'the base'} (it moved, within noise), = unchanged (every case gave the same value).`;
}

/**
 * The error bar of each (setting, metric) for the charts: `[value − low, high − value]` under
 * `<metric>__err`, merged into the grouped-bar rows (zero-width on a deterministic model).
 */
export function withErrorBars<T extends Record<string, string | number | number[]>>(rows: readonly T[], stats: SuiteStatistics | null | undefined, metrics: readonly string[]): Array<T & Record<string, number[]>> {
  return rows.map((row) => {
    const out: Record<string, string | number | number[]> = { ...row };
    const ivs = stats?.intervals[String(row.setting)];
    for (const m of metrics) {
      const iv = ivs?.[m];
      if (iv) out[`${m}__err`] = [Math.max(0, iv.value - iv.low), Math.max(0, iv.high - iv.value)];
    }
    return out as T & Record<string, number[]>;
  });
}

export { AGAINST_BASE, AGAINST_CURRENT } from '../eval/browser';

/** The key a metric's error bar is drawn from. */
export const errorKey = (metric: string): string => `${metric}__err`;
