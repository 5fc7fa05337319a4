/**
 * A model-call retry as the replay shows it, where it happened: which attempt failed and why (the
 * typed reason), the wait the client planned before the next attempt, and, when the run recorded it
 * (issue 22, `lib/harness/call-times.ts`), the wait as it happened: from when, for how long, and
 * whether it was cut short (a cancel or a deadline ended it before the planned wait was over).
 */
import type { CallTime, ModelRetryEvent } from '../harness/browser';
import { formatDuration } from '../format/browser';

export interface RetryView {
  /** "Attempt 2 failed" (attempt 0: the stored row did not say which). */
  title: string;
  /** The typed reason: `throttled`, `timeout`, `server_error`, … */
  reason: string;
  /** "retrying in 1.0 s" — the wait the client planned. */
  planned: string;
  /**
   * The recorded wait, "waited 1.0 s, from 3.2 s into the run (2026-12-02T10:31:23.120Z)", or
   * "wait not recorded" for a run from before times were.
   */
  waited: string;
  /** The recorded wait ended before the planned one was over. Null: not recorded. */
  cutShort: boolean | null;
  detail: string;
}

/** The recorded wait's length (ms), never negative. */
const lengthOf = (t: CallTime) => Math.max(0, t.endMs - t.startMs);

export function retryView(e: Pick<ModelRetryEvent, 'attempt' | 'reason' | 'delayMs' | 'detail' | 'time'>): RetryView {
  const t = e.time ?? null;
  return {
    title: e.attempt > 0 ? `Attempt ${e.attempt} failed` : 'An attempt failed',
    reason: e.reason,
    planned: `retrying in ${formatDuration(e.delayMs)}`,
    waited: t ? `waited ${formatDuration(lengthOf(t))}, from ${formatDuration(t.startMs)} into the run (${t.startedAt})` : 'wait not recorded',
    // Whole milliseconds: a timer that fired on time is not "cut short" by a rounding difference.
    cutShort: t ? Math.round(lengthOf(t)) < Math.floor(e.delayMs) : null,
    detail: e.detail,
  };
}
