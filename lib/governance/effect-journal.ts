/**
 * The effect journal's state machine. Every write gets an operation key and an entry that moves
 *
 *   prepared → dispatched → committed | failed | unknown
 *   unknown  → reconciled_committed | reconciled_absent
 *   reconciled_absent → dispatched   (sent again under the same key; see below)
 *
 * `prepared` may also be dispatched again after a crash (nothing was sent yet). `unknown` is never
 * retried blindly: only reconciliation, which asks the downstream system by key, moves it on. A write
 * reconciliation found never applied may be dispatched again under its key by the run that holds
 * it, when the policy (and an approval it needed, still valid) lets the same call through again.
 */
import { z } from 'zod';
import { JsonValueSchema } from '../harness';
import { JournalTransitionError } from './errors';
import type { EvidenceBody, EvidenceSink } from './evidence';

export const EFFECT_STATUSES = ['prepared', 'dispatched', 'committed', 'failed', 'unknown', 'reconciled_committed', 'reconciled_absent'] as const;
export const EffectStatusSchema = z.enum(EFFECT_STATUSES);
export type EffectStatus = z.infer<typeof EffectStatusSchema>;

const EDGES: Readonly<Record<EffectStatus, readonly EffectStatus[]>> = {
  prepared: ['dispatched'],
  dispatched: ['committed', 'failed', 'unknown'],
  committed: [],
  failed: [],
  unknown: ['reconciled_committed', 'reconciled_absent'],
  reconciled_committed: [],
  reconciled_absent: ['dispatched'],
};

/** Whether `from → to` is an edge of the journal. */
export function canTransition(from: EffectStatus, to: EffectStatus): boolean {
  return EDGES[from].includes(to);
}

/** Throws JournalTransitionError unless `from → to` is an edge. */
export function assertTransition(key: string, from: EffectStatus, to: EffectStatus): void {
  if (!canTransition(from, to)) throw new JournalTransitionError(key, from, to);
}

/**
 * The states a write can be left in (no further automatic move; `reconciled_absent` moves on only
 * when its run sends the same call again).
 */
export const TERMINAL_STATUSES: readonly EffectStatus[] = ['committed', 'failed', 'reconciled_committed', 'reconciled_absent'];

export const JournalEntrySchema = z.object({
  operationKey: z.string(),
  runId: z.string(),
  callId: z.string(),
  tool: z.string(),
  toolVersion: z.string(),
  status: EffectStatusSchema,
  argumentsDigest: z.string(),
  /** The tool's result once known (committed, failed, or what reconciliation found). */
  result: JsonValueSchema.nullable(),
  resultDigest: z.string().nullable(),
  error: z.string().nullable(),
  attempts: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type JournalEntry = z.infer<typeof JournalEntrySchema>;

/** The operation key of a write: one per (run, call, tool, tool version). Readable, and stable across processes. */
export function operationKey(parts: { runId: string; callId: string; tool: string; toolVersion: string }): string {
  return `op:${parts.runId}:${parts.callId}:${parts.tool}@${parts.toolVersion}`;
}

/**
 * The evidence event of one journal step, built from the entry as the step left it. A store backed
 * by the database commits it in the same transaction as the step, so no step can be kept without
 * its event (a process killed between the two used to lose it); a store without one appends it to
 * `sink` right after the step.
 */
export interface JournalEvidence {
  body(entry: JournalEntry): EvidenceBody;
  sink?: EvidenceSink;
}

/**
 * Where journal entries live. `transition` is a compare-and-set on the status: it returns the
 * updated entry, or null when the entry was no longer in `from` (someone else moved it). Given
 * `evidence`, the step's event is recorded with the step (only when the step happened).
 */
export interface JournalStore {
  get(key: string): Promise<JournalEntry | null>;
  /** Inserts a prepared entry; when the key exists already, returns the existing entry unchanged (and records nothing). */
  prepare(
    entry: Omit<JournalEntry, 'status' | 'result' | 'resultDigest' | 'error' | 'attempts' | 'createdAt' | 'updatedAt'>,
    at: string,
    evidence?: JournalEvidence,
  ): Promise<JournalEntry>;
  transition(
    key: string,
    from: EffectStatus,
    to: EffectStatus,
    patch: { result?: JournalEntry['result']; resultDigest?: string | null; error?: string | null; attempts?: number },
    at: string,
    evidence?: JournalEvidence,
  ): Promise<JournalEntry | null>;
  list(filter?: { status?: EffectStatus; runId?: string; tool?: string }): Promise<JournalEntry[]>;
}
