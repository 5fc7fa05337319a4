/** An in-memory JournalStore (unit tests and single-process runs without a database). */
import { assertTransition, type EffectStatus, type JournalEntry, type JournalEvidence, type JournalStore } from './effect-journal';

export class MemoryJournalStore implements JournalStore {
  private readonly entries = new Map<string, JournalEntry>();

  async get(key: string): Promise<JournalEntry | null> {
    const e = this.entries.get(key);
    return e ? structuredClone(e) : null;
  }

  async prepare(entry: Parameters<JournalStore['prepare']>[0], at: string, evidence?: JournalEvidence): Promise<JournalEntry> {
    const existing = this.entries.get(entry.operationKey);
    if (existing) return structuredClone(existing);
    const created: JournalEntry = { ...entry, status: 'prepared', result: null, resultDigest: null, error: null, attempts: 0, createdAt: at, updatedAt: at };
    this.entries.set(entry.operationKey, created);
    await evidence?.sink?.append(evidence.body(structuredClone(created)));
    return structuredClone(created);
  }

  async transition(key: string, from: EffectStatus, to: EffectStatus, patch: Parameters<JournalStore['transition']>[3], at: string, evidence?: JournalEvidence): Promise<JournalEntry | null> {
    assertTransition(key, from, to);
    const e = this.entries.get(key);
    if (!e || e.status !== from) return null;
    const next: JournalEntry = { ...e, ...patch, status: to, updatedAt: at };
    this.entries.set(key, next);
    await evidence?.sink?.append(evidence.body(structuredClone(next)));
    return structuredClone(next);
  }

  async list(filter: { status?: EffectStatus; runId?: string; tool?: string } = {}): Promise<JournalEntry[]> {
    return [...this.entries.values()]
      .filter((e) => (!filter.status || e.status === filter.status) && (!filter.runId || e.runId === filter.runId) && (!filter.tool || e.tool === filter.tool))
      .map((e) => structuredClone(e));
  }
}
