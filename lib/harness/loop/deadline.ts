/**
 * The run's own abort signal: it aborts when the caller cancels the run (Ctrl-C, Stop) or when the
 * wall-clock limit passes, whichever comes first, so whatever the run waits on (a model call, a
 * retry wait, a tool call) is cut off at once instead of being checked for between calls.
 */
import type { Clock } from '../clock';
import { stop, type GuardVerdict } from '../guards/verdict';

/** Why a run's signal aborted at its wall-clock limit (the abort reason; tells a deadline from a cancel). */
export class WallClockDeadline extends Error {
  constructor(readonly timeoutS: number) {
    super(`the run reached its wall-clock limit of ${timeoutS}s`);
    this.name = 'WallClockDeadline';
  }
}

export interface RunDeadline {
  /** Aborts on the caller's cancel or at the deadline. */
  readonly signal: AbortSignal;
  /** True once the wall-clock limit has passed (the signal aborted for that reason). */
  passed(): boolean;
  /** The TIMEOUT verdict of a run cut off at its deadline. */
  verdict(): Extract<GuardVerdict, { stop: true }>;
  /** Stops the timer (the run ended). */
  dispose(): void;
}

/**
 * A deadline `timeoutS` after `started` on `clock`. The timer is real time (what the limit means);
 * a fake clock only drives the guard checked between calls.
 */
export function runDeadline(clock: Clock, started: number, timeoutS: number, cancel?: AbortSignal): RunDeadline {
  const controller = new AbortController();
  let passed = false;
  const onCancel = () => controller.abort(cancel?.reason);
  if (cancel?.aborted) onCancel();
  else cancel?.addEventListener('abort', onCancel, { once: true });
  const left = Math.max(0, started + timeoutS * 1000 - clock.now());
  const timer = setTimeout(() => {
    if (controller.signal.aborted) return;
    passed = true;
    controller.abort(new WallClockDeadline(timeoutS));
  }, left);
  // Never the only thing keeping a process alive: whatever the run waits on holds it open itself.
  timer.unref?.();
  return {
    signal: controller.signal,
    passed: () => passed,
    verdict: () => {
      const elapsedS = (clock.now() - started) / 1000;
      return stop('wall_clock', 'TIMEOUT', `run reached the wall-clock limit of ${timeoutS.toFixed(0)}s (${elapsedS.toFixed(1)}s); the call in flight was cancelled`) as Extract<
        GuardVerdict,
        { stop: true }
      >;
    },
    dispose: () => {
      clearTimeout(timer);
      cancel?.removeEventListener('abort', onCancel);
    },
  };
}
