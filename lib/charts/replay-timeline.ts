/**
 * Shaping a stored run for replay: the transition log as frames the slider walks through, which
 * model call belongs to a frame, and the per-call token series drawn against the budget.
 */

/** One transition of the loop as stored (`index` is its position in the log). */
export interface TimelineTransition {
  index: number;
  step: number;
  from: string;
  to: string;
  reason: string;
}

/** One model call's usage (from the run's model turns). */
export interface TimelineCall {
  step: number;
  /** Null: the provider did not report it. */
  inputTokens: number | null;
  outputTokens: number | null;
}

/** A replay frame: the machine just moved along `transition`; it is now in `transition.to`. */
export interface ReplayFrame {
  frame: number;
  step: number;
  state: string;
  transition: TimelineTransition;
}

/** Frames in log order (de-duplicated by index, since pages of the log may overlap). */
export function buildFrames(transitions: readonly TimelineTransition[]): ReplayFrame[] {
  const byIndex = new Map<number, TimelineTransition>();
  for (const t of transitions) byIndex.set(t.index, t);
  return [...byIndex.values()]
    .sort((a, b) => a.index - b.index)
    .map((t, frame) => ({ frame, step: t.step, state: t.to, transition: t }));
}

/** Clamps a requested frame number into range (0 when there are no frames). */
export function clampFrame(frame: number, count: number): number {
  if (count <= 0 || !Number.isFinite(frame)) return 0;
  return Math.min(count - 1, Math.max(0, Math.trunc(frame)));
}

/** The first frame at or after harness step `step` (for "jump to step"), or the last frame. */
export function frameForStep(frames: readonly ReplayFrame[], step: number): number {
  const i = frames.findIndex((f) => f.step >= step);
  return i === -1 ? Math.max(0, frames.length - 1) : i;
}

/**
 * The model call a step made. The loop makes at most one call per step, and a step that stops
 * before its call ends the run, so call k (0-based) always belongs to step k + 1; step 0 (PLAN) has
 * none.
 */
export function callIndexForStep(step: number): number | null {
  return Number.isInteger(step) && step >= 1 ? step - 1 : null;
}

/**
 * The harness step whose model call a frame is about: in CALL_MODEL the machine is about to make
 * the next step's call (the loop counts the step when it enters the call), in every other state
 * it has just made this step's call.
 */
export function modelStepForFrame(frame: Pick<ReplayFrame, 'state' | 'step'>): number {
  return frame.state === 'CALL_MODEL' ? frame.step + 1 : frame.step;
}

/** A point of the token chart. */
export interface TokenPoint {
  /** 1-based model call number (the x axis). */
  call: number;
  step: number;
  /** Null: not reported (no bar is drawn, never a 0 bar). */
  inputTokens: number | null;
  /** Input + output tokens reported up to and including this call (unreported calls add nothing). */
  cumulativeTokens: number;
  budget: number | null;
}

/** Per-call input tokens and the running total the token budget is checked against. */
export function tokenSeries(calls: readonly TimelineCall[], budget: number | null): TokenPoint[] {
  let total = 0;
  return [...calls]
    .sort((a, b) => a.step - b.step)
    .map((c, i) => {
      total += (c.inputTokens ?? 0) + (c.outputTokens ?? 0);
      return { call: i + 1, step: c.step, inputTokens: c.inputTokens, cumulativeTokens: total, budget };
    });
}

/** The token budget recorded in a run's configuration, when there is one. */
export function budgetFromConfig(config: unknown): number | null {
  if (config === null || typeof config !== 'object' || Array.isArray(config)) return null;
  const v = (config as Record<string, unknown>).tokenBudget;
  return typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : null;
}

/**
 * The token chart's two scales: each call's input tokens on their own (left) axis, so ~1,000-token
 * bars fill the chart instead of standing 2% tall under a 20,000-token budget, and the running total
 * with the budget line on the right axis.
 */
export function tokenAxes(series: readonly TokenPoint[], budget: number | null): { perCall: [number, number]; total: [number, number] } {
  const perCall = Math.max(1, ...series.map((p) => p.inputTokens ?? 0));
  const total = Math.max(1, ...series.map((p) => p.cumulativeTokens), budget ?? 0);
  return { perCall: [0, Math.ceil(perCall * 1.1)], total: [0, Math.ceil(total * 1.05)] };
}
