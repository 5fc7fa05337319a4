/**
 * A recorded time (issue 22 §3) as four nullable columns and back. A row without them belongs to a
 * run recorded before times were: it reads back as no time (unknown), never as zero.
 */
import type { CallTime } from '../../harness';

export interface CallTimeColumns {
  startedAt: Date | null;
  endedAt: Date | null;
  startMs: number | null;
  endMs: number | null;
}

export function callTimeColumns(time: CallTime | undefined): CallTimeColumns {
  if (!time) return { startedAt: null, endedAt: null, startMs: null, endMs: null };
  return { startedAt: new Date(time.startedAt), endedAt: new Date(time.endedAt), startMs: time.startMs, endMs: time.endMs };
}

/** `{ time }` when the row has all four columns, else nothing. */
export function callTimeOf(r: CallTimeColumns): { time: CallTime } | Record<string, never> {
  if (r.startedAt === null || r.endedAt === null || r.startMs === null || r.endMs === null) return {};
  return { time: { startedAt: r.startedAt.toISOString(), endedAt: r.endedAt.toISOString(), startMs: r.startMs, endMs: r.endMs } };
}
