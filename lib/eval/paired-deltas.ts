/**
 * Each matrix setting against `none`, paired by case: the mean per-case difference with a paired
 * bootstrap interval, a paired test fit for the metric (McNemar's exact test for one pass/fail run per
 * case, the sign test on case means with epochs, a permutation test for means), and Holm's
 * correction over every cell compared. A deterministic model's deltas are exact: zero-width, no test.
 */
import { INTERVAL_METRICS, valuesByCase, type RunPoint } from './interval-metrics';
import { round4 } from './numbers';
import { mcnemarExact, signTest } from './stats/binomial';
import { holmAdjust } from './stats/multiple';
import { epochsToDetect } from './stats/power';
import { pairedBootstrap, pairedPermutationTest } from './stats/resampling';

/** The familywise significance level of the matrix's marks. */
export const SIGNIFICANCE_LEVEL = 0.05;

export type DeltaTest = 'mcnemar_exact' | 'sign' | 'permutation' | 'none_deterministic';

/**
 * `higher`/`lower`: distinguishable from `none` after correction; `indistinguishable`: it moved but
 * not beyond noise; `unchanged`: every paired case gave the same value.
 */
export type DeltaVerdict = 'higher' | 'lower' | 'indistinguishable' | 'unchanged';

export interface PairedDelta {
  delta: number;
  low: number;
  high: number;
  /** Cases with a value under both settings. */
  pairs: number;
  test: DeltaTest;
  /** The test's two-sided p, and Holm-adjusted over the cells compared; null for a deterministic model. */
  p: number | null;
  p_adjusted: number | null;
  verdict: DeltaVerdict;
  /** Epochs per case that would detect this delta at 80% power (5%, two-sided); null when it cannot be estimated. */
  epochs_for_80_power: number | null;
}

export interface PairedDeltaOptions {
  epochs: number;
  deterministic: boolean;
  /** The metrics compared (cells = settings × metrics); every per-run metric by default. */
  metrics?: readonly string[];
  seed?: string;
}

const mean = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;

function sd(xs: readonly number[]): number {
  if (xs.length < 2) return 0;
  const m = mean(xs);
  return Math.sqrt(xs.reduce((s, x) => s + (x - m) ** 2, 0) / (xs.length - 1));
}

interface Cell {
  setting: string;
  key: string;
  delta: PairedDelta;
  /** The unrounded p, for the correction. */
  rawP: number | null;
}

/** Paired deltas of each setting (other than `base`) against `base`, keyed by setting then metric. */
export function pairedDeltas(
  runsBySetting: Readonly<Record<string, readonly RunPoint[]>>,
  base: string,
  options: PairedDeltaOptions,
): Record<string, Record<string, PairedDelta>> {
  const baseRuns = runsBySetting[base] ?? [];
  const metrics = INTERVAL_METRICS.filter((m) => !options.metrics || options.metrics.includes(m.key));
  const cells: Cell[] = [];
  for (const [setting, runs] of Object.entries(runsBySetting)) {
    if (setting === base) continue;
    for (const metric of metrics) {
      const a = valuesByCase(baseRuns, metric);
      const b = valuesByCase(runs, metric);
      const paired = [...a.keys()].filter((c) => (a.get(c)?.length ?? 0) > 0 && (b.get(c)?.length ?? 0) > 0);
      if (paired.length === 0) continue;
      const diffs = paired.map((c) => mean(b.get(c)!) - mean(a.get(c)!));
      const delta = round4(mean(diffs));
      const unchanged = diffs.every((d) => d === 0);
      // The spread of one run's paired difference, for the power hint: case-level spread scaled back to a single epoch.
      const runSd = sd(diffs) * Math.sqrt(options.epochs);
      const epochsForPower = unchanged ? null : epochsToDetect(delta, runSd, paired.length);
      if (options.deterministic) {
        const verdict: DeltaVerdict = unchanged ? 'unchanged' : delta > 0 ? 'higher' : delta < 0 ? 'lower' : 'unchanged';
        cells.push({ setting, key: metric.key, delta: { delta, low: delta, high: delta, pairs: paired.length, test: 'none_deterministic', p: null, p_adjusted: null, verdict, epochs_for_80_power: null }, rawP: null });
        continue;
      }
      const seed = `${options.seed ?? 'deltas'}:${setting}:${metric.key}`;
      const iv = pairedBootstrap(diffs, seed)!;
      let test: DeltaTest;
      let p: number;
      if (metric.shape === 'rate' && options.epochs === 1) {
        test = 'mcnemar_exact';
        p = mcnemarExact(diffs.filter((d) => d > 0).length, diffs.filter((d) => d < 0).length);
      } else if (metric.shape === 'rate') {
        test = 'sign';
        p = signTest(diffs);
      } else {
        test = 'permutation';
        p = pairedPermutationTest(diffs, seed);
      }
      cells.push({
        setting,
        key: metric.key,
        delta: { delta, low: round4(iv.low), high: round4(iv.high), pairs: paired.length, test, p: round4(p), p_adjusted: null, verdict: unchanged ? 'unchanged' : 'indistinguishable', epochs_for_80_power: epochsForPower },
        rawP: p,
      });
    }
  }
  const tested = cells.filter((c) => c.rawP !== null);
  const adjusted = holmAdjust(tested.map((c) => c.rawP!));
  tested.forEach((c, i) => {
    c.delta.p_adjusted = round4(adjusted[i]!);
    if (c.delta.verdict !== 'unchanged' && adjusted[i]! < SIGNIFICANCE_LEVEL) c.delta.verdict = c.delta.delta > 0 ? 'higher' : 'lower';
  });
  const out: Record<string, Record<string, PairedDelta>> = {};
  for (const c of cells) (out[c.setting] ??= {})[c.key] = c.delta;
  return out;
}
