/**
 * Where a replay link lands. One word per thing, the same in the address, the slider and the
 * panels: a *transition* is one move of the state machine (the slider counts them, `?transition=N`),
 * a *step* is one turn of the harness loop (the panels, the runs list and compare count them,
 * `?step=N`). A link names one or the other, and opens where its label says.
 */
import { frameForStep, type ReplayFrame } from './replay-timeline';

/** The address's position: transition N (1-based), or harness step N, or the start. */
export type ReplayPosition = { transition: number } | { step: number } | null;

const positive = (v: string | string[] | undefined): number | null => {
  const n = Number(Array.isArray(v) ? v[0] : v);
  return Number.isInteger(n) && n >= 0 ? n : null;
};

/** Reads `?transition=` (preferred when both are given) and `?step=`; anything else opens at the start. */
export function replayPosition(transition: string | string[] | undefined, step: string | string[] | undefined): ReplayPosition {
  const t = positive(transition);
  if (t !== null && t >= 1) return { transition: t };
  const s = positive(step);
  return s !== null ? { step: s } : null;
}

/** The 0-based frame a position opens at (clamping is left to the player). */
export function frameOfPosition(frames: readonly ReplayFrame[], at: ReplayPosition): number {
  if (at === null) return 0;
  if ('transition' in at) return at.transition - 1;
  return frameForStep(frames, at.step);
}

/** The address of the transition shown (1-based), with any `?step=` it was opened by removed. */
export function addressForFrame(href: string, frame: number): string | null {
  const url = new URL(href);
  if (url.searchParams.get('transition') === String(frame + 1) && !url.searchParams.has('step')) return null;
  url.searchParams.delete('step');
  url.searchParams.set('transition', String(frame + 1));
  return url.toString();
}
