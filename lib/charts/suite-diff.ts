/**
 * Instructor mode's comparison of two suite runs (a baseline and the chosen setting): each metric's
 * change and the metric that moved most (the cases whose score on it moved: lib/eval/case-epochs.ts).
 */
import { CHART_METRICS, directionOf, readMetrics, type Direction } from './matrix-view';

/** The metrics instructor mode's suite cards show: the charted rates, arguments, and mean input tokens (oversized_payload's move). */
export const SUITE_CARD_METRICS: readonly string[] = [...CHART_METRICS, 'argument_correctness', 'mean_input_tokens'];

export interface MetricMove {
  metric: string;
  baseline: number | null;
  value: number | null;
  delta: number | null;
  direction: Direction;
}

/** Changes of the given metrics, biggest absolute move first among those that moved. */
export function metricMoves(baseline: unknown, current: unknown, metrics: readonly string[]): MetricMove[] {
  const b = readMetrics(baseline);
  const c = readMetrics(current);
  return metrics.map((metric) => {
    const bv = b[metric] ?? null;
    const cv = c[metric] ?? null;
    const delta = bv === null || cv === null ? null : Math.round((cv - bv) * 10_000) / 10_000;
    return { metric, baseline: bv, value: cv, delta, direction: directionOf(metric, delta, bv ?? undefined) };
  });
}

/**
 * How far a metric moved relative to its size: |Δ| over the larger of the two values. A loop rate
 * going from 0 to 0.05 (a whole new behaviour) outweighs tool selection falling from 1 to 0.95, and
 * rates and token means can be ranked together.
 */
export function relativeMove(m: Pick<MetricMove, 'baseline' | 'value' | 'delta'>): number {
  if (m.delta === null) return 0;
  const scale = Math.max(Math.abs(m.baseline ?? 0), Math.abs(m.value ?? 0));
  return scale === 0 ? 0 : Math.abs(m.delta) / scale;
}

/**
 * The metric that moved most, or null when none moved. A move for the worse outranks one for the
 * better (instructor mode explains what a weakness broke; "worse" already knows that a rising loop
 * rate or token mean is bad), then the larger relative move, then the larger absolute change.
 */
export function biggestMove(moves: readonly MetricMove[]): MetricMove | null {
  const moved = moves.filter((m) => m.direction !== 'same' && m.delta !== null);
  const worseFirst = (m: MetricMove) => (m.direction === 'worse' ? 0 : 1);
  return moved.sort((x, y) => worseFirst(x) - worseFirst(y) || relativeMove(y) - relativeMove(x) || Math.abs(y.delta!) - Math.abs(x.delta!))[0] ?? null;
}
