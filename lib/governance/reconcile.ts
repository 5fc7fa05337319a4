/**
 * Reconciliation of `unknown` writes: ask the downstream system by operation key and record what it
 * found. This is the only way an unknown entry moves on; nothing is re-sent.
 */
import type { JsonValue } from '../harness';
import { canonicalDigest } from './canonical-json';
import type { JournalEntry, JournalStore } from './effect-journal';
import { GovernanceError } from './errors';
import { evidenceBody, type EvidenceSink } from './evidence';

/** Looks an operation up downstream: its recorded result, or null when it never happened. */
export interface Reconciler {
  lookup(tool: string, operationKey: string): Promise<JsonValue | null>;
}

/** A downstream (an executor or a ledger) that can be asked whether an operation happened. */
export interface OperationLookup {
  lookupOperation(tool: string, operationKey: string): Promise<JsonValue | null>;
}

export function hasOperationLookup(x: unknown): x is OperationLookup {
  return typeof (x as Partial<OperationLookup> | null)?.lookupOperation === 'function';
}

/** Asks whatever downstream the executor reaches (local ledger, durable store, MCP server). */
export function operationReconciler(downstream: OperationLookup): Reconciler {
  return { lookup: (tool, key) => downstream.lookupOperation(tool, key) };
}

/** Reconciles one unknown entry; throws GovernanceError('not_unknown') for any other state. */
export async function reconcileEntry(
  store: JournalStore,
  reconciler: Reconciler,
  key: string,
  options: { evidence?: EvidenceSink; actor?: string | null; now?: () => Date } = {},
): Promise<JournalEntry> {
  const at = () => (options.now?.() ?? new Date()).toISOString();
  const entry = await store.get(key);
  if (!entry) throw new GovernanceError('not_found', `no journal entry for ${key}`);
  if (entry.status !== 'unknown') throw new GovernanceError('not_unknown', `${key} is ${entry.status}; only unknown entries are reconciled`);
  const found = await reconciler.lookup(entry.tool, key);
  // The event is committed with the move (JournalStore), so no reconciliation is kept without it.
  const evidence = {
    sink: options.evidence,
    body: (moved: JournalEntry) =>
      evidenceBody({
        kind: 'reconciled',
        at: at(),
        runId: moved.runId,
        callId: moved.callId,
        operationKey: key,
        tool: moved.tool,
        toolVersion: moved.toolVersion,
        effectStatus: moved.status,
        argumentsDigest: moved.argumentsDigest,
        resultDigest: moved.resultDigest,
        actor: options.actor ?? null,
        detail: found === null ? 'downstream has no record of this operation' : 'downstream has the operation',
      }),
  };
  const moved =
    found === null
      ? await store.transition(key, 'unknown', 'reconciled_absent', {}, at(), evidence)
      : await store.transition(key, 'unknown', 'reconciled_committed', { result: found, resultDigest: canonicalDigest(found), error: null }, at(), evidence);
  if (!moved) throw new GovernanceError('conflict', `${key} was reconciled by someone else`);
  return moved;
}
