/**
 * The dashboard over time (issue 37), shaped from the hourly rollup: one point per hour or day of the
 * window, one series per value of the chosen dimension (the busiest few), latency percentiles from
 * merged histogram buckets, mean evaluator scores from sums and counts. Unknown stays unknown: a point
 * whose runs include unpriced ones says how many, and calls that reported no usage are counted apart.
 */
import type { HourDelta, LatencyDelta, ScoreDelta } from '../db/review';
import { percentileMs } from './latency-histogram';

export const TREND_WINDOWS = { '24h': { hours: 24, step: 'hour' }, '7d': { hours: 24 * 7, step: 'hour' }, '30d': { hours: 24 * 30, step: 'day' } } as const;
export type TrendWindow = keyof typeof TREND_WINDOWS;
export const TREND_DIMS = ['all', 'model', 'source', 'agent', 'tag'] as const;
export type TrendDim = (typeof TREND_DIMS)[number];
/** Series drawn at most per chart (the busiest); the rest are in the runs list. */
export const MAX_SERIES = 5;

/** The rollup's rows as the page reads them (lib/db/review/rollup.ts writes them): one hour of one dimension value. */
type HourRow = Omit<HourDelta, 'tenant' | 'dim'>;
type LatencyRow = Omit<LatencyDelta, 'tenant' | 'dim'>;
type ScoreRow = Omit<ScoreDelta, 'tenant' | 'dim'>;
export interface TrendRows {
  hours: readonly HourRow[];
  latency: readonly LatencyRow[];
  scores: readonly ScoreRow[];
}

export interface TrendPoint {
  /** Start of the point's hour or day (ISO) and of the next one. */
  from: string;
  before: string;
  runs: number;
  terminations: Record<string, number>;
  p50Ms: number | null;
  p95Ms: number | null;
  inputTokens: number;
  outputTokens: number;
  unreportedCalls: number;
  /** Priced runs' cost; runs without a price are in costUnknownRuns, never counted as $0. */
  costUsd: number;
  costUnknownRuns: number;
  guardrailFindings: number;
  /** Mean score per evaluator (null: no score in this point). */
  scores: Record<string, number | null>;
}

export interface TrendSeries {
  /** The dimension's value ('' for all runs). */
  value: string;
  runs: number;
  points: TrendPoint[];
}

export interface Trends {
  step: 'hour' | 'day';
  series: TrendSeries[];
  terminations: string[];
  evaluators: string[];
}

const stepMs = (step: 'hour' | 'day') => (step === 'hour' ? 3_600_000 : 86_400_000);

/** The start of the point `d` falls in. */
export function pointStart(d: Date, step: 'hour' | 'day'): number {
  return Math.floor(d.getTime() / stepMs(step)) * stepMs(step);
}

/** The window's bounds: the `hours` before `now`'s next step boundary. */
export function windowOf(window: TrendWindow, now: Date): { from: Date; to: Date; step: 'hour' | 'day' } {
  const { hours, step } = TREND_WINDOWS[window];
  const to = pointStart(now, step) + stepMs(step);
  return { from: new Date(to - hours * 3_600_000), to: new Date(to), step };
}

export function prepareTrends(rows: TrendRows, w: { from: Date; to: Date; step: 'hour' | 'day' }, maxSeries = MAX_SERIES): Trends {
  const size = stepMs(w.step);
  const starts: number[] = [];
  for (let t = pointStart(w.from, w.step); t < w.to.getTime(); t += size) starts.push(t);
  const totals = new Map<string, number>();
  for (const h of rows.hours) totals.set(h.value, (totals.get(h.value) ?? 0) + h.runs);
  const values = [...totals.entries()].filter(([, n]) => n > 0).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, maxSeries).map(([v]) => v);
  const terminations = [...new Set(rows.hours.filter((h) => h.runs > 0).map((h) => h.termination))].sort();
  const evaluators = [...new Set(rows.scores.filter((s) => s.count > 0).map((s) => s.evaluator))].sort();
  const byValue = <T extends { value: string }>(rows: readonly T[]) => {
    const m = new Map<string, T[]>();
    for (const r of rows) {
      const list = m.get(r.value);
      if (list) list.push(r);
      else m.set(r.value, [r]);
    }
    return m;
  };
  const hoursOf = byValue(rows.hours);
  const latencyOf = byValue(rows.latency);
  const scoresOf = byValue(rows.scores);
  const series = values.map((value): TrendSeries => {
    const points = new Map<number, TrendPoint & { buckets: Map<number, number>; sums: Map<string, { sum: number; count: number }> }>();
    for (const t of starts) {
      points.set(t, {
        from: new Date(t).toISOString(), before: new Date(t + size).toISOString(), runs: 0, terminations: {}, p50Ms: null, p95Ms: null,
        inputTokens: 0, outputTokens: 0, unreportedCalls: 0, costUsd: 0, costUnknownRuns: 0, guardrailFindings: 0, scores: {}, buckets: new Map(), sums: new Map(),
      });
    }
    const at = (hour: Date) => points.get(pointStart(hour, w.step));
    for (const h of hoursOf.get(value) ?? []) {
      const p = at(h.hour);
      if (!p) continue;
      p.runs += h.runs;
      p.terminations[h.termination] = (p.terminations[h.termination] ?? 0) + h.runs;
      p.inputTokens += h.inputTokens;
      p.outputTokens += h.outputTokens;
      p.unreportedCalls += h.unreportedCalls;
      p.costUsd += h.costUsd;
      p.costUnknownRuns += h.costUnknownRuns;
      p.guardrailFindings += h.guardrailFindings;
    }
    for (const l of latencyOf.get(value) ?? []) {
      const p = at(l.hour);
      if (p) p.buckets.set(l.bucket, (p.buckets.get(l.bucket) ?? 0) + l.count);
    }
    for (const s of scoresOf.get(value) ?? []) {
      const p = at(s.hour);
      if (!p) continue;
      const acc = p.sums.get(s.evaluator) ?? { sum: 0, count: 0 };
      acc.sum += s.sum;
      acc.count += s.count;
      p.sums.set(s.evaluator, acc);
    }
    const out = [...points.values()].map(({ buckets, sums, ...p }) => ({
      ...p,
      costUsd: Math.round(p.costUsd * 1e6) / 1e6,
      p50Ms: percentileMs(buckets, 0.5),
      p95Ms: percentileMs(buckets, 0.95),
      scores: Object.fromEntries(evaluators.map((e) => {
        const acc = sums.get(e);
        return [e, acc && acc.count > 0 ? Math.round((acc.sum / acc.count) * 10_000) / 10_000 : null];
      })),
    }));
    return { value, runs: totals.get(value) ?? 0, points: out };
  });
  return { step: w.step, series, terminations, evaluators };
}

/** The runs list behind a point: its time range, the series' dimension value and an optional termination or evaluator. */
export function pointRunsHref(dim: TrendDim, value: string, point: Pick<TrendPoint, 'from' | 'before'>, extra: { termination?: string; evaluator?: string } = {}): string {
  const params = new URLSearchParams({ from: point.from, before: point.before });
  if (dim === 'model') params.set('model', value);
  if (dim === 'source') params.set('source', value);
  if (dim === 'agent') params.set('agent', value);
  if (dim === 'tag') params.set('tag', value);
  if (extra.termination) params.set('termination', extra.termination);
  if (extra.evaluator) params.set('evaluator', extra.evaluator);
  return `/runs?${params.toString()}`;
}
