import 'server-only';
/**
 * The effect journal in the database: a JournalStore whose transitions are compare-and-set on status,
 * each committed in one transaction with its evidence event (a step is never kept without it).
 * A result or error is stored with the tenant's redaction classes taken out (issue 33), the entry
 * listing its `redactions`; the result digest stays the digest of the real result. A write replayed
 * from the journal (a duplicate delivery, a takeover) answers with the stored, redacted result: what
 * the tenant keeps out of storage is not kept here to be given back either.
 */
import type { EffectStatus, JournalEntry, JournalEvidence, JournalStore } from '../../governance';
import { assertTransition } from '../../governance';
import { evidenceKey } from '../../governance';
import type { EvidenceKey } from '../../governance';
import { safeJsonParse, type JsonValue } from '../../harness';
import type { Prisma } from '../core';
import { appendEvidenceIn, storedTime, txInsert, txRows, withEvidenceTx } from './governance-evidence';
import { Prisma as Sql } from '../generated/sqlite/client';
import { governedRedactor } from './governed-content';
import { redactionsText } from './redaction-store';

/** Whose run a journal writes for: its tenant's redaction at rest applies, under the subject's key. */
export interface JournalContent {
  tenant: string;
  /** The user the run acts for (its pseudonym key); absent: the governed run's actor, once stored. */
  subject?: string;
}

type Row = Awaited<ReturnType<Prisma['effectJournalEntry']['findUniqueOrThrow']>>;

/** An entry as read through Prisma's model API, or raw (txRows: times as the driver reads them, counts as numbers or text). */
function toEntry(r: Omit<Row, 'createdAt' | 'updatedAt' | 'attempts'> & { createdAt: unknown; updatedAt: unknown; attempts: unknown }): JournalEntry {
  const parsed = r.result === null ? null : safeJsonParse(r.result);
  return {
    operationKey: r.operationKey,
    runId: r.runId,
    callId: r.callId,
    tool: r.tool,
    toolVersion: r.toolVersion,
    status: r.status as EffectStatus,
    argumentsDigest: r.argumentsDigest,
    result: parsed && parsed.ok ? parsed.value : null,
    resultDigest: r.resultDigest,
    error: r.error,
    attempts: Number(r.attempts),
    createdAt: storedTime(r.createdAt).toISOString(),
    updatedAt: storedTime(r.updatedAt).toISOString(),
  };
}

export class PrismaJournalStore implements JournalStore {
  /**
   * `content`: the tenant (and subject) of the run the journal writes for; without it, the stored
   * governed run of the entry says (an entry of a run not stored anywhere is kept as it is).
   */
  constructor(
    private readonly prisma: Prisma,
    private readonly key: EvidenceKey = evidenceKey(),
    private readonly content?: JournalContent,
  ) {}

  /** The redactor for an entry's result and error (null: its tenant redacts nothing). */
  private async redactor(key: string) {
    // Told whose run it writes for: nothing to look up (the dashboard's governed starts and resumes).
    if (this.content?.subject !== undefined) return governedRedactor(this.prisma, this.content.tenant, this.content.subject);
    const entry = await this.prisma.effectJournalEntry.findUnique({ where: { operationKey: key }, select: { runId: true } });
    const run = entry ? await this.prisma.governedRun.findUnique({ where: { runId: entry.runId }, select: { tenant: true, actor: true } }) : null;
    const tenant = this.content?.tenant ?? run?.tenant;
    if (tenant === undefined) return null;
    return governedRedactor(this.prisma, tenant, this.content?.subject ?? run?.actor ?? '');
  }

  async get(key: string): Promise<JournalEntry | null> {
    const r = await this.prisma.effectJournalEntry.findUnique({ where: { operationKey: key } });
    return r ? toEntry(r) : null;
  }

  /**
   * Inserts the prepared entry with its evidence in one transaction. Two workers preparing the same
   * key: the loser's insert fails on the key, its transaction is retried (withEvidenceTx), finds the
   * winner's entry and returns it, recording nothing.
   */
  async prepare(entry: Parameters<JournalStore['prepare']>[0], at: string, evidence?: JournalEvidence): Promise<JournalEntry> {
    // The executor prepares a key it has just looked up and not found (JournaledExecutor): the first
    // attempt inserts at once; only a retry (another worker inserted it meanwhile) reads the entry first.
    let attempt = 0;
    return withEvidenceTx(this.prisma, async (tx) => {
      attempt += 1;
      const existing = attempt > 1 ? await tx.effectJournalEntry.findUnique({ where: { operationKey: entry.operationKey } }) : null;
      if (existing) return toEntry(existing);
      // Raw, on the connection the transaction holds (txRows): a start prepares and moves each write's entry in three transactions.
      const created = toEntry((await txInsert<Row>(tx, 'EffectJournalEntry', { ...entry, status: 'prepared', attempts: 0, createdAt: new Date(at), updatedAt: new Date(at) }, true))!);
      if (evidence) await appendEvidenceIn(tx, this.key, evidence.body(created));
      return created;
    });
  }

  async transition(
    key: string,
    from: EffectStatus,
    to: EffectStatus,
    patch: Parameters<JournalStore['transition']>[3],
    at: string,
    evidence?: JournalEvidence,
  ): Promise<JournalEntry | null> {
    assertTransition(key, from, to);
    const data: Record<string, unknown> = { status: to, updatedAt: new Date(at) };
    // The digest (computed by the caller) stays the real result's; what is stored is redacted.
    const content = (patch.result !== undefined && patch.result !== null) || (patch.error !== undefined && patch.error !== null);
    const r = content ? await this.redactor(key) : null;
    if (patch.result !== undefined) data.result = patch.result === null ? null : JSON.stringify(r ? r.json(patch.result as JsonValue, 'journal result') : (patch.result as JsonValue));
    if (patch.resultDigest !== undefined) data.resultDigest = patch.resultDigest;
    if (patch.error !== undefined) data.error = r && patch.error !== null ? r.text(patch.error, 'journal error') : patch.error;
    if (r) data.redactions = redactionsText(r.redactions());
    if (patch.attempts !== undefined) data.attempts = patch.attempts;
    return withEvidenceTx(this.prisma, async (tx) => {
      // Compare-and-set in one statement that returns the moved entry; no entry at `from`: null.
      const set = Object.entries(data).map(([column, value]) => Sql.sql`${Sql.raw(`"${column}" = `)}${value}`);
      const [row] = await txRows<Row>(tx, Sql.sql`UPDATE "EffectJournalEntry" SET ${Sql.join(set)} WHERE "operationKey" = ${key} AND "status" = ${from} RETURNING *`);
      if (!row) return null;
      const moved = toEntry(row);
      if (evidence) await appendEvidenceIn(tx, this.key, evidence.body(moved));
      return moved;
    });
  }

  /** Entries by filter; `runIds` limits them to those runs (a tenant's governed runs). */
  async list(filter: { status?: EffectStatus; runId?: string; tool?: string; runIds?: readonly string[] } = {}): Promise<JournalEntry[]> {
    const runIds = filter.runIds ? [...filter.runIds] : undefined;
    const runId = filter.runId !== undefined ? (runIds && !runIds.includes(filter.runId) ? { in: [] } : filter.runId) : runIds ? { in: runIds } : undefined;
    const rows = await this.prisma.effectJournalEntry.findMany({
      where: { status: filter.status, runId, tool: filter.tool },
      orderBy: [{ updatedAt: 'desc' }, { operationKey: 'asc' }],
      take: 500,
    });
    return rows.map(toEntry);
  }
}

/** The journal's entries of `runIds` (status, error and result), for the pages that say what happened to a write. */
export async function journalEntriesOfRuns(
  prisma: Prisma,
  runIds: readonly string[],
): Promise<{ runId: string; callId: string; tool: string; status: EffectStatus; error: string | null; result: JsonValue | null }[]> {
  if (runIds.length === 0) return [];
  const rows = await prisma.effectJournalEntry.findMany({
    where: { runId: { in: [...new Set(runIds)] } },
    select: { runId: true, callId: true, tool: true, status: true, error: true, result: true },
    orderBy: { createdAt: 'asc' },
  });
  return rows.map((r) => {
    const parsed = r.result === null ? null : safeJsonParse(r.result);
    return { ...r, status: r.status as EffectStatus, result: parsed && parsed.ok ? parsed.value : null };
  });
}
