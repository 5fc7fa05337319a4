/**
 * The run-guard seam: consulted for every schema-valid call to a known tool, after the
 * repeated-call guard and before execution. A guard allows, blocks (the model gets a structured
 * `blocked_by_guard` error and the run continues) or halts the run with a typed reason.
 */
import type { JsonValue } from '../json';
import type { TerminationReason, ToolRecord } from '../types';

export type RunGuardVerdict =
  | { action: 'allow' }
  | { action: 'block'; message: string }
  | { action: 'halt'; reason: TerminationReason; detail: string };

export interface RunGuardContext {
  query: string;
  step: number;
  /** Tool records of the run so far (all kinds), in order. */
  records: readonly ToolRecord[];
}

export interface RunGuard {
  readonly name: string;
  checkToolCall(call: { name: string; arguments: JsonValue }, context: RunGuardContext): RunGuardVerdict;
}
