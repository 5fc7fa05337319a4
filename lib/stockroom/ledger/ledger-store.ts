/**
 * Where created restock requests are kept, by operation key: the downstream system of record that
 * reconciliation asks. The CLI, eval and matrix keep the per-run in-memory ledger only (the
 * curriculum's figures stay exact); the dashboard's governed runs hand in a durable store
 * (lib/db/governance/restock-ledger-store.ts) so "did this write happen?" has a true answer after a restart
 * and in another process.
 */
import type { RestockRecord } from '../tools/restock-ledger';

export interface LedgerEntry {
  operationKey: string;
  /** The run that wrote it (null outside a run). */
  runId: string | null;
  record: RestockRecord;
}

export interface LedgerStore {
  /** The record created under `operationKey`, or null when none was. */
  find(operationKey: string): Promise<RestockRecord | null>;
  /** Keeps a created record; when the key is already kept, returns the kept record (first write wins). */
  put(entry: LedgerEntry): Promise<RestockRecord>;
}

/** A store in memory (tests; one process only). */
export class MemoryLedgerStore implements LedgerStore {
  private readonly entries = new Map<string, LedgerEntry>();

  async find(operationKey: string): Promise<RestockRecord | null> {
    const e = this.entries.get(operationKey);
    return e ? { ...e.record } : null;
  }

  async put(entry: LedgerEntry): Promise<RestockRecord> {
    const existing = this.entries.get(entry.operationKey);
    if (existing) return { ...existing.record };
    this.entries.set(entry.operationKey, { ...entry, record: { ...entry.record } });
    return { ...entry.record };
  }
}
