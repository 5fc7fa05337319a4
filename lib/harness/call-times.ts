/**
 * Reading a run's recorded times: one entry per model call, tool call, retry wait, approval wait and
 * guard event, in trajectory order, each with its start and end (wall clock and offset from the run's
 * start) or null when the run was recorded before times were. Nothing is rebuilt from latencies: a
 * waterfall, the replay and the trace export read times through this one function.
 */
import type { CallTime, RunResult } from './types';

export type TimedKind = 'model_call' | 'tool_call' | 'retry_wait' | 'approval_wait' | 'guard';

export interface TimedEntry {
  kind: TimedKind;
  /** Position of the trajectory entry the time belongs to. */
  index: number;
  step: number;
  /** The tool's name, the guard's name, the retry's reason, or `model`. */
  label: string;
  /** Null: not recorded (a run from before times were, or an imported trace without them). */
  time: CallTime | null;
}

export interface RunTimes {
  startedAt: string;
  durationMs: number;
  /** True when every entry has its time. */
  complete: boolean;
  entries: TimedEntry[];
}

/** The times a run recorded for what it did. */
export function callTimesOf(run: Pick<RunResult, 'trajectory' | 'startedAt' | 'durationMs'>): RunTimes {
  const entries: TimedEntry[] = [];
  run.trajectory.forEach((s, index) => {
    switch (s.kind) {
      case 'model_turn':
        entries.push({ kind: 'model_call', index, step: s.step, label: 'model', time: s.time ?? null });
        break;
      case 'tool_call':
        // The wait for a reviewer comes before the call it was for.
        if (s.policy?.resolution) entries.push({ kind: 'approval_wait', index, step: s.step, label: s.name, time: s.approvalWait ?? null });
        entries.push({ kind: 'tool_call', index, step: s.step, label: s.name, time: s.time ?? null });
        break;
      case 'model_retry':
        entries.push({ kind: 'retry_wait', index, step: s.step, label: s.reason, time: s.time ?? null });
        break;
      case 'guard':
        entries.push({ kind: 'guard', index, step: s.step, label: s.guard, time: s.time ?? null });
        break;
      case 'compaction':
        break;
    }
  });
  return { startedAt: run.startedAt, durationMs: run.durationMs, complete: entries.every((e) => e.time !== null), entries };
}

/** The time of trajectory entry `index` of one kind, or null. */
export function timeAt(times: RunTimes, index: number, kind: TimedKind): CallTime | null {
  return times.entries.find((e) => e.index === index && e.kind === kind)?.time ?? null;
}
