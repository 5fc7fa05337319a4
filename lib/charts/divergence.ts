/**
 * Where a replayed run left its recording: the DIVERGED guard event (the step, and the diff of the
 * recorded and the new request). Compare highlights that step.
 */
import type { TrajectoryStep } from '../harness';

export interface Divergence {
  step: number;
  /** What differed between the recorded request and the new one. */
  detail: string;
  /** True when a live model took over from there instead of stopping the run. */
  continuedLive: boolean;
}

const LIVE_PREFIX = 'continued live: ';

export function divergenceOf(trajectory: readonly TrajectoryStep[]): Divergence | null {
  for (const e of trajectory) {
    if (e.kind === 'guard' && e.reason === 'DIVERGED') {
      const continuedLive = e.detail.startsWith(LIVE_PREFIX);
      return { step: e.step, detail: continuedLive ? e.detail.slice(LIVE_PREFIX.length) : e.detail, continuedLive };
    }
  }
  return null;
}
