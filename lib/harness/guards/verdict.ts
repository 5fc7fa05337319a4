import type { TerminationReason } from '../types';

/** What a guard decided: continue, or stop the run with a typed reason. Guards never throw. */
export type GuardVerdict = { stop: false } | { stop: true; guard: string; reason: TerminationReason; detail: string };

export const CONTINUE: GuardVerdict = { stop: false };

export function stop(guard: string, reason: TerminationReason, detail: string): GuardVerdict {
  return { stop: true, guard, reason, detail };
}
