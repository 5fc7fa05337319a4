/**
 * The effect journal's state machine. Every write gets an operation key and an entry that moves
 *
 *   prepared → dispatched → committed | failed | unknown
 *   unknown  → reconciled_committed | reconciled_absent
 *
 * `prepared` may also be dispatched again after a crash (nothing was sent yet). `unknown` is never
 * retried automatically: only reconciliation, which asks the downstream system by key, moves it on.
 */
import { z } from 'zod';
import { JsonValueSchema } from '../harness/types';
import { JournalTransitionError } from './errors';

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
  reconciled_absent: [],
};

/** Whether `from → to` is an edge of the journal. */
export function canTransition(from: EffectStatus, to: EffectStatus): boolean {
  return EDGES[from].includes(to);
}

/** Throws JournalTransitionError unless `from → to` is an edge. */
export function assertTransition(key: string, from: EffectStatus, to: EffectStatus): void {
  if (!canTransition(from, to)) throw new JournalTransitionError(key, from, to);
}

/** The states a write can be left in (no further automatic move). */
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
 * Where journal entries live. `transition` is a compare-and-set on the status: it returns the
 * updated entry, or null when the entry was no longer in `from` (someone else moved it).
 */
export interface JournalStore {
  get(key: string): Promise<JournalEntry | null>;
  /** Inserts a prepared entry; when the key exists already, returns the existing entry unchanged. */
  prepare(entry: Omit<JournalEntry, 'status' | 'result' | 'resultDigest' | 'error' | 'attempts' | 'createdAt' | 'updatedAt'>, at: string): Promise<JournalEntry>;
  transition(
    key: string,
    from: EffectStatus,
    to: EffectStatus,
    patch: { result?: JournalEntry['result']; resultDigest?: string | null; error?: string | null; attempts?: number },
    at: string,
  ): Promise<JournalEntry | null>;
  list(filter?: { status?: EffectStatus; runId?: string; tool?: string }): Promise<JournalEntry[]>;
}
