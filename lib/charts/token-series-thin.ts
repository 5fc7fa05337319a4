/**
 * The token chart of a long run, thinned to what a chart a few hundred pixels wide can show. A
 * 5,000-span trace has ~2,500 model calls: recharts drew a bar, a tick and a line point for each
 * (7,600 SVG nodes, seconds of main-thread work that held up the rest of the replay). Above
 * `TOKEN_CHART_MAX_POINTS` calls, consecutive calls are grouped: a group's bar is its largest call
 * (a spike never vanishes) and its line point the running total at its last call (the total is
 * exact where it is drawn). A run of up to `TOKEN_CHART_MAX_POINTS` calls is drawn as it always was.
 */
import type { TokenPoint } from './replay-timeline';

/** The most points the token chart draws; a run with more model calls is grouped into this many. */
export const TOKEN_CHART_MAX_POINTS = 240;

/** A point of the thinned chart: `call` is the group's first call, `lastCall` its last (equal when not grouped). */
export type ThinTokenPoint = TokenPoint & { lastCall: number };

export interface ThinTokenSeries {
  points: ThinTokenPoint[];
  /** Calls per point (1: not thinned). */
  perPoint: number;
}

/** The series grouped into at most `max` points (unchanged, one call per point, when it fits). */
export function thinTokenSeries(series: readonly TokenPoint[], max: number = TOKEN_CHART_MAX_POINTS): ThinTokenSeries {
  if (!Number.isInteger(max) || max < 1) throw new RangeError(`max must be a positive integer; got ${max}`);
  if (series.length <= max) return { points: series.map((p) => ({ ...p, lastCall: p.call })), perPoint: 1 };
  const perPoint = Math.ceil(series.length / max);
  const points: ThinTokenPoint[] = [];
  for (let i = 0; i < series.length; i += perPoint) {
    const group = series.slice(i, i + perPoint);
    const first = group[0]!;
    const last = group.at(-1)!;
    const reported = group.map((p) => p.inputTokens).filter((t): t is number => t !== null);
    points.push({
      call: first.call,
      lastCall: last.call,
      step: first.step,
      // The group's largest call, so a spike shows; null only when no call of the group reported usage.
      inputTokens: reported.length ? Math.max(...reported) : null,
      cumulativeTokens: last.cumulativeTokens,
      budget: first.budget,
    });
  }
  return { points, perPoint };
}

/** The x value (a point's `call`) under which model call `call` is drawn; null when it is not on the chart. */
export function thinnedCall(thin: ThinTokenSeries, call: number | null): number | null {
  if (call === null) return null;
  const point = thin.points.find((p) => call >= p.call && call <= p.lastCall);
  return point ? point.call : null;
}
