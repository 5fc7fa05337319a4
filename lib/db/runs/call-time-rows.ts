/**
 * A recorded time (issue 22 §3) as four nullable columns and back. A row without them belongs to a
 * run recorded before times were: it reads back as no time (unknown), never as zero.
 */
import type { CallTime } from '../../harness';
import type { StepTreeColumns } from './agent-tree-rows';

export interface CallTimeColumns {
  startedAt: Date | null;
  endedAt: Date | null;
  startMs: number | null;
  endMs: number | null;
}

/**
 * `row` with the four time columns and the step's three tree columns (agent-tree-rows.ts) set on it,
 * in that order: set in place, since spreading them into each step row's literal was a copy per row
 * (issue 36, OTLP ingest builds ~1,000 step rows a request).
 */
export function withTimeAndTree<T extends object>(row: T, time: CallTime | undefined, tree: StepTreeColumns): T & CallTimeColumns & StepTreeColumns {
  const r = row as T & CallTimeColumns & StepTreeColumns;
  r.startedAt = time ? new Date(time.startedAt) : null;
  r.endedAt = time ? new Date(time.endedAt) : null;
  r.startMs = time ? time.startMs : null;
  r.endMs = time ? time.endMs : null;
  r.agentIdx = tree.agentIdx;
  r.spanId = tree.spanId;
  r.parentSpanId = tree.parentSpanId;
  return r;
}

/** `{ time }` when the row has all four columns, else nothing. */
export function callTimeOf(r: CallTimeColumns): { time: CallTime } | Record<string, never> {
  if (r.startedAt === null || r.endedAt === null || r.startMs === null || r.endMs === null) return {};
  return { time: { startedAt: r.startedAt.toISOString(), endedAt: r.endedAt.toISOString(), startMs: r.startMs, endMs: r.endMs } };
}
