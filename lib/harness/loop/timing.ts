/**
 * Recorded times: every model call, tool call, retry wait, approval wait and guard event gets its
 * wall-clock start and end and offsets from the run's start on the run's monotonic clock (the clock
 * handed to the loop). Times are recorded beside what happened and enter nothing a run's outcome,
 * tokens or scores depend on.
 */
import type { Clock } from '../clock';
import type { CallTime } from '../types';

/** One moment of a run: wall clock and offset (ms) on the run's timeline. */
export interface Instant {
  at: string;
  ms: number;
}

/** A run's timeline: its clock and the reading its offsets count from. */
export interface Timeline {
  clock: Clock;
  /** The clock's reading at offset 0 (earlier than now by the approval waits of a resumed run too). */
  base: number;
}

const round3 = (ms: number) => Math.round(ms * 1000) / 1000;

export function instant(t: Timeline): Instant {
  return { at: t.clock.isoNow(), ms: round3(t.clock.now() - t.base) };
}

export function callTime(start: Instant, end: Instant): CallTime {
  return { startedAt: start.at, endedAt: end.at, startMs: start.ms, endMs: end.ms };
}

/** A moment as a zero-length time (a guard that tripped). */
export function momentTime(at: Instant): CallTime {
  return callTime(at, at);
}

/**
 * The timeline of a resumed run: offsets continue from the pause and count the wait for the
 * reviewer (wall clock between the pause and now, the only clock two processes share), and the
 * approval wait itself. A checkpoint from before times were recorded has no pause time: its wait is
 * unknown (null) and the offsets go on from the run's elapsed time.
 */
export function resumedTimeline(
  clock: Clock,
  cp: { elapsedMs: number; pausedAt?: string; offsetMs?: number },
): { timeline: Timeline; approvalWait: CallTime | null } {
  const now = clock.now();
  const nowIso = clock.isoNow();
  const { pausedAt, offsetMs } = cp;
  if (pausedAt === undefined || offsetMs === undefined || Number.isNaN(Date.parse(pausedAt))) {
    return { timeline: { clock, base: now - cp.elapsedMs }, approvalWait: null };
  }
  const waitMs = Math.max(0, Date.parse(nowIso) - Date.parse(pausedAt));
  const resumedMs = round3(offsetMs + waitMs);
  return {
    timeline: { clock, base: now - resumedMs },
    approvalWait: { startedAt: pausedAt, endedAt: nowIso, startMs: offsetMs, endMs: resumedMs },
  };
}
