import 'server-only';
/**
 * The evidence chains in the database: one chain per run, so appends of different runs never
 * contend. An append is one short transaction that locks its own chain's head row (an UPDATE …
 * RETURNING; concurrent appends to the same chain queue on the row instead of retrying), inserts the
 * signed event and re-signs the head. A chain's first append also seals the new chain into the signed
 * anchor in the same transaction (the only appends that take the anchor's lock: one per run), so no
 * chain exists unsealed; the sweeper (sealEvidenceChains) seals chains stored before that was so.
 */
import { chainOf, EvidenceBodySchema, chainNext, type EvidenceBody, type EvidenceEvent, type EvidenceSink } from '../../governance';
import { evidenceKey } from '../../governance';
import { ANCHOR_GENESIS, ANCHOR_ID, anchorHash, anchorNext, signHead, type AnchorHead, type ChainHead, type EvidenceKey } from '../../governance';
import { readWitness, recordWitness, witnessPath } from '../../governance';
import { erasureSeqs, labelWithoutRow, mismatchedLabel, missingEvidence, type EvidenceSubjects, type LabelSubject, ERASED, evidenceBundle, type EvidenceBundle } from '../../governance';
import { labelDigest } from '../../eval';
import { verifyEvidence, type ChainVerification, type RedactionSince, type StoredEvent, type WitnessAnchor } from '../../governance';
import { canonicalJson } from '../../governance';
import { safeJsonParse } from '../../harness';
import type { Prisma } from '../core';
import { Prisma as Sql } from '../generated/sqlite/client';
import { heldClient, holdingClient } from '../core';
import pg from 'pg';
import { DbError, NotFoundError } from '../core';

/** A chain's first append can race another first append of the same chain; the loser retries once it exists. */
const MAX_APPEND_ATTEMPTS = 5;
/** Appends wait for a pooled connection under load instead of failing. */
const TX_OPTIONS = { maxWait: 30_000, timeout: 30_000 };

export type Tx = Parameters<Parameters<Prisma['$transaction']>[0]>[0];

/**
 * Two first appends of one chain (or of the anchor) racing: the loser's insert fails on the key.
 * Through Prisma's model API that is P2002; a raw statement's is P2010 naming the database's own
 * error; on a held PostgreSQL client it is PostgreSQL's 23505.
 */
const isUniqueViolation = (err: unknown) => {
  const { code, message } = err as { code?: string; message?: string };
  return code === 'P2002' || code === '23505' || (code === 'P2010' && /23505|unique constraint/i.test(message ?? ''));
};

/** A bound value as the held PostgreSQL client is given it: a time as UTC text (the columns are timestamp(3), as Prisma writes them). */
const pgParam = (v: unknown) => (v instanceof Date ? v.toISOString() : typeof v === 'bigint' ? String(v) : v);

/**
 * Runs one raw statement of the append inside `tx`: on the pool client the transaction holds when it
 * was begun inside holdingClient (withEvidenceTx), else through Prisma. Through Prisma a statement
 * cost ~0.5 ms of CPU (a model one ~0.8 ms), on the held client ~0.07 ms, and a governed start
 * appends five times (issue 36: 50 concurrent starts were bound by that CPU). The statements are
 * the same on both databases; rows are read as the driver gives them (counts through Number()).
 */
export async function txRows<T>(tx: Tx, sql: Sql.Sql): Promise<T[]> {
  const client = heldClient();
  if (client) return (await client.query({ text: sql.text, values: sql.values.map(pgParam), types: { getTypeParser: pgTypeParser } })).rows as T[];
  return tx.$queryRaw<T[]>(sql);
}

/** timestamp(3) without a time zone holds UTC (as Prisma writes and reads it); node-postgres would read it as local time. */
const TIMESTAMP_OID = 1114;
const pgTypeParser = ((oid: number, format?: string) =>
  oid === TIMESTAMP_OID && format !== 'binary' ? (text: string) => new Date(`${text.replace(' ', 'T')}Z`) : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser;

/** A stored time as a Date, whichever way the driver read it (a Date, or SQLite's text). */
export const storedTime = (v: unknown): Date => (v instanceof Date ? v : new Date(String(v)));

/**
 * INSERTs one row of `table` inside `tx` (txRows), its columns the row's defined keys; with
 * `returning`, the stored row. What Prisma's model API fills in on its side is the caller's to give
 * (a @default(now()) or @updatedAt time).
 */
export async function txInsert<T = unknown>(tx: Tx, table: string, row: Record<string, unknown>, returning = false): Promise<T | null> {
  const columns = Object.keys(row).filter((c) => row[c] !== undefined);
  const rows = await txRows<T>(
    tx,
    Sql.sql`${Sql.raw(`INSERT INTO "${table}" (${columns.map((c) => `"${c}"`).join(', ')}) VALUES (`)}${Sql.join(columns.map((c) => row[c]))}${Sql.raw(`)${returning ? ' RETURNING *' : ''}`)}`,
  );
  return rows[0] ?? null;
}

/** Takes the chain head's row lock and `n` numbers in one statement (PostgreSQL and SQLite both return it). */
async function lockHead(tx: Tx, chain: string, n: number): Promise<{ seq: number; hash: string; anchorSeq: number | null } | null> {
  const rows = await txRows<{ seq: number | bigint | string; hash: string; anchorSeq: number | bigint | string | null }>(
    tx,
    Sql.sql`UPDATE "EvidenceChain" SET "seq" = "seq" + ${n} WHERE "chain" = ${chain} RETURNING "seq", "hash", "anchorSeq"`,
  );
  const r = rows[0];
  return r ? { seq: Number(r.seq) - n, hash: r.hash, anchorSeq: r.anchorSeq === null ? null : Number(r.anchorSeq) } : null;
}

/**
 * Seals every chain started since the last seal into the signed anchor (the sweeper calls this): the
 * one place the anchor row is written, so appends never queue behind it. Returns how many it sealed.
 */
export async function sealEvidenceChains(prisma: Prisma, key: EvidenceKey = evidenceKey()): Promise<number> {
  return withEvidenceTx(prisma, async (tx) => {
    let anchor = await tx.evidenceAnchor.findUnique({ where: { id: ANCHOR_ID } });
    if (anchor) await tx.$executeRaw`UPDATE "EvidenceAnchor" SET "count" = "count" WHERE "id" = ${ANCHOR_ID}`;
    anchor = anchor ? await tx.evidenceAnchor.findUniqueOrThrow({ where: { id: ANCHOR_ID } }) : null;
    const open = await tx.evidenceChain.findMany({ where: { anchorSeq: null }, select: { chain: true }, orderBy: [{ createdAt: 'asc' }, { chain: 'asc' }], take: SEAL_BATCH });
    if (open.length === 0) return 0;
    let next: AnchorHead | null = anchor;
    for (const { chain } of open) {
      next = anchorNext(key, next, chain);
      // Under the head's row lock: an append to this chain waits, then re-signs with the new position.
      const rows = await tx.$queryRaw<{ seq: number | bigint; hash: string }[]>`
        UPDATE "EvidenceChain" SET "anchorSeq" = ${next.count} WHERE "chain" = ${chain} RETURNING "seq", "hash"`;
      const head = signHead(key, { chain, anchorSeq: next.count, seq: Number(rows[0]!.seq), hash: rows[0]!.hash });
      await tx.evidenceChain.update({ where: { chain }, data: { signature: head.signature } });
    }
    const sealed = next!;
    if (anchor) await tx.evidenceAnchor.update({ where: { id: ANCHOR_ID }, data: sealed });
    else await tx.evidenceAnchor.create({ data: { id: ANCHOR_ID, ...sealed } });
    return open.length;
  });
}

/** Most chains sealed per transaction (the next sweep seals the rest). */
const SEAL_BATCH = 500;

/**
 * Appends inside a caller's transaction (so evidence commits with the change it records). The
 * caller retries the transaction on a unique violation (two first appends of one chain).
 */
export async function appendEvidenceIn(tx: Tx, key: EvidenceKey, body: EvidenceBody): Promise<EvidenceEvent> {
  return (await appendManyIn(tx, key, [body]))[0]!;
}

/**
 * Appends bodies in order inside a caller's transaction, per chain: lock the head and take the
 * numbers (one statement), insert the events (one), re-sign the head (one); a new chain is two.
 */
export async function appendManyIn(tx: Tx, key: EvidenceKey, bodies: readonly EvidenceBody[]): Promise<EvidenceEvent[]> {
  const byChain = new Map<string, EvidenceBody[]>();
  for (const b of bodies) byChain.set(chainOf(b), [...(byChain.get(chainOf(b)) ?? []), b]);
  const out: EvidenceEvent[] = [];
  // A new chain is sealed into the anchor in this transaction, with its first event: a chain deleted
  // with its head before a later seal used to verify as intact. The anchor is one row every new chain
  // waits on, so it is held for as little as possible: an append of one new chain (every governed
  // run's first event) holds no head, and takes the anchor only after its events are inserted, just
  // before sealing. An append that also holds a head locks the anchor before any head (as the sweeper
  // does), so two appends never wait on each other in opposite orders.
  // (One chain needs no look-up first: its head lock says whether it exists.)
  const multi = byChain.size > 1;
  const known = multi ? new Set((await tx.evidenceChain.findMany({ where: { chain: { in: [...byChain.keys()] } }, select: { chain: true } })).map((c) => c.chain)) : null;
  let anchor = known && [...byChain.keys()].some((c) => !known.has(c)) ? await lockAnchor(tx) : undefined;
  for (const [chain, list] of byChain) {
    const head = await lockHead(tx, chain, list.length);
    const events: EvidenceEvent[] = [];
    let last: Pick<EvidenceEvent, 'seq' | 'hash'> | null = head && head.seq > 0 ? head : null;
    for (const body of list) {
      const e = chainNext(key, last, body);
      events.push(e);
      last = e;
    }
    const now = new Date();
    const rows = events.map((e) => Sql.sql`(${Sql.join([chain, e.seq, e.prevHash, e.hash, e.signature, canonicalJson(e.body), e.body.runId ?? null, now])})`);
    await txRows(tx, Sql.sql`INSERT INTO "EvidenceEvent" ("chain", "seq", "prevHash", "hash", "signature", "body", "runId", "createdAt") VALUES ${Sql.join(rows)}`);
    const end = events.at(-1)!;
    const signed = signHead(key, { chain, anchorSeq: head?.anchorSeq ?? null, seq: end.seq, hash: end.hash });
    if (head) await txRows(tx, Sql.sql`UPDATE "EvidenceChain" SET "hash" = ${signed.hash}, "signature" = ${signed.signature} WHERE "chain" = ${chain}`);
    else {
      anchor ??= await lockAnchor(tx);
      const next = anchorNext(key, anchor.head, chain);
      const sealed = signHead(key, { chain, anchorSeq: next.count, seq: end.seq, hash: end.hash });
      await txRows(tx, Sql.sql`INSERT INTO "EvidenceChain" ("chain", "anchorSeq", "seq", "hash", "signature", "createdAt") VALUES (${chain}, ${next.count}, ${end.seq}, ${sealed.hash}, ${sealed.signature}, ${now})`);
      if (anchor.head) await txRows(tx, Sql.sql`UPDATE "EvidenceAnchor" SET "count" = ${next.count}, "hash" = ${next.hash}, "signature" = ${next.signature} WHERE "id" = ${ANCHOR_ID}`);
      else await txRows(tx, Sql.sql`INSERT INTO "EvidenceAnchor" ("id", "count", "hash", "signature") VALUES (${ANCHOR_ID}, ${next.count}, ${next.hash}, ${next.signature})`);
      anchor = { head: next };
    }
    out.push(...events);
  }
  return out;
}

/** Takes the anchor row's lock (an UPDATE that changes nothing) and reads it; null head when there is none yet. */
async function lockAnchor(tx: Tx): Promise<{ head: AnchorHead | null }> {
  const rows = await txRows<{ count: number | bigint | string; hash: string; signature: string }>(
    tx,
    Sql.sql`UPDATE "EvidenceAnchor" SET "count" = "count" WHERE "id" = ${ANCHOR_ID} RETURNING "count", "hash", "signature"`,
  );
  const r = rows[0];
  // Two first chains of a new database may both create the row: the loser's transaction is retried (unique violation).
  return { head: r ? { count: Number(r.count), hash: r.hash, signature: r.signature } : null };
}

/** Runs `work` in a transaction, again when a first append of a chain lost a race. */
export async function withEvidenceTx<T>(prisma: Prisma, work: (tx: Tx) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      // holdingClient: the append's statements go on the pool client the transaction holds (txRows).
      return await holdingClient(() => prisma.$transaction(work, TX_OPTIONS));
    } catch (err) {
      if (!isUniqueViolation(err) || attempt >= MAX_APPEND_ATTEMPTS) {
        if (isUniqueViolation(err)) throw new DbError('evidence_contention', `could not start an evidence chain after ${MAX_APPEND_ATTEMPTS} attempts`);
        throw err;
      }
    }
  }
}

export class PrismaEvidenceSink implements EvidenceSink {
  constructor(
    private readonly prisma: Prisma,
    private readonly key: EvidenceKey = evidenceKey(),
    /** Where the newest anchor is witnessed outside the database (null: nowhere); STOCKROOM_EVIDENCE_WITNESS by default. */
    private readonly witness: string | null = witnessPath(),
  ) {}

  async append(body: EvidenceBody): Promise<EvidenceEvent> {
    const e = await withEvidenceTx(this.prisma, (tx) => appendEvidenceIn(tx, this.key, body));
    if (e.seq === 1) await this.witnessNow();
    return e;
  }

  async appendMany(bodies: readonly EvidenceBody[]): Promise<EvidenceEvent[]> {
    const events = await withEvidenceTx(this.prisma, (tx) => appendManyIn(tx, this.key, bodies));
    // Only a new chain moves the anchor.
    if (events.some((e) => e.seq === 1)) await this.witnessNow();
    return events;
  }

  /**
   * Writes the records `before` stores, then appends `bodies`, in one transaction: the records and
   * the evidence about them commit together or not at all. The chain is locked as appendMany locks
   * it, after the records are written, so its head (and a new chain's anchor) is held no longer.
   */
  async appendManyWith<T>(before: (tx: Tx) => Promise<T>, bodies: readonly EvidenceBody[]): Promise<T> {
    const { out, events } = await withEvidenceTx(this.prisma, async (tx) => {
      // Only a chain's first append racing another is retried: a record that cannot be written fails now.
      const out = await before(tx).catch((err: unknown) => {
        throw new DbError('records_not_stored', `the records the evidence is about could not be stored: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
      });
      return { out, events: bodies.length > 0 ? await appendManyIn(tx, this.key, bodies) : [] };
    });
    if (events.some((e) => e.seq === 1)) await this.witnessNow();
    return out;
  }

  private async witnessNow(): Promise<void> {
    if (this.witness !== null) await writeEvidenceWitness(this.prisma, this.witness);
  }
}

/** The anchor's digest after its first chain: which database an anchor belongs to (null: no chain yet). */
async function originOf(prisma: Prisma): Promise<string | null> {
  const first = await prisma.evidenceChain.findUnique({ where: { anchorSeq: 1 }, select: { chain: true } });
  return first ? anchorHash(ANCHOR_GENESIS, first.chain) : null;
}

let witnessWarned = false;

/** Per database client and file: the witness write under way, and the one queued behind it. */
const witnessWrites = new WeakMap<Prisma, Map<string, { running: Promise<void>; queued: Promise<void> | null }>>();

/**
 * Writes the newest anchor to the witness file (evidence-witness.ts). Never fails what it follows
 * (the evidence is committed): a witness that cannot be written is said once on stderr.
 *
 * Writes of one database to one file are coalesced: a call made while a write is under way waits for
 * one more write that starts after it, so it reads an anchor at least as new as the caller's commit
 * (concurrent governed starts share one read and one file write instead of one each).
 */
export async function writeEvidenceWitness(prisma: Prisma, file: string | null = witnessPath()): Promise<void> {
  if (file === null) return;
  let byFile = witnessWrites.get(prisma);
  if (!byFile) witnessWrites.set(prisma, (byFile = new Map()));
  const state = byFile.get(file);
  if (!state) {
    const running = writeWitnessNow(prisma, file).finally(() => {
      const s = byFile.get(file);
      if (s && s.running === running && s.queued === null) byFile.delete(file);
    });
    byFile.set(file, { running, queued: null });
    return running;
  }
  if (state.queued) return state.queued;
  const queued = state.running.then(() => {
    const next = writeWitnessNow(prisma, file).finally(() => {
      const s = byFile.get(file);
      if (s && s.running === next && s.queued === null) byFile.delete(file);
    });
    byFile.set(file, { running: next, queued: null });
    return next;
  });
  state.queued = queued;
  return queued;
}

async function writeWitnessNow(prisma: Prisma, file: string): Promise<void> {
  try {
    const [anchor, origin] = await Promise.all([prisma.evidenceAnchor.findUnique({ where: { id: ANCHOR_ID } }), originOf(prisma)]);
    if (!anchor || origin === null) return;
    recordWitness(file, origin, { count: anchor.count, hash: anchor.hash, signature: anchor.signature });
  } catch (err) {
    if (witnessWarned) return;
    witnessWarned = true;
    console.warn(`evidence: could not write the witness ${file}: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** The witnessed anchor for this database from `file` (GovernanceError naming the file when it has none). */
export async function witnessForDatabase(prisma: Prisma, file: string): Promise<WitnessAnchor> {
  return readWitness(file, await originOf(prisma));
}

function toEvent(r: { chain: string; seq: number; prevHash: string; hash: string; signature: string; body: string; runId: string | null }): StoredEvent {
  const parsed = safeJsonParse(r.body);
  const body = parsed.ok ? EvidenceBodySchema.safeParse(parsed.value) : null;
  return {
    chain: r.chain,
    seq: r.seq,
    prevHash: r.prevHash,
    hash: r.hash,
    signature: r.signature,
    // A body that no longer parses is kept raw so verification reports it.
    body: (body?.success ? body.data : parsed.ok ? parsed.value : r.body) as EvidenceBody,
    runIdColumn: r.runId,
  };
}

/** Stored events: one run's chain in order, or every chain (chains in start order, events in seq order). */
export async function listEvidence(prisma: Prisma, filter: { runId?: string } = {}): Promise<StoredEvent[]> {
  const rows = await prisma.evidenceEvent.findMany({ where: { runId: filter.runId }, orderBy: [{ createdAt: 'asc' }, { chain: 'asc' }, { seq: 'asc' }] });
  return rows.map(toEvent);
}

/**
 * Verifies every stored chain, its signed head and the anchor with `key` (the server's key by
 * default), then that every governed run, journal entry, ledger record and decision has its events,
 * and, given a witness (the newest anchor kept outside the database), that the anchor is not older.
 */
export async function verifyStoredChain(prisma: Prisma, key: EvidenceKey = evidenceKey(), options: { witness?: WitnessAnchor } = {}): Promise<ChainVerification> {
  const [rows, heads, anchor] = await Promise.all([
    prisma.evidenceEvent.findMany({ orderBy: [{ chain: 'asc' }, { seq: 'asc' }] }),
    prisma.evidenceChain.findMany(),
    prisma.evidenceAnchor.findUnique({ where: { id: ANCHOR_ID } }),
  ]);
  const chainHeads: ChainHead[] = heads.map((h) => ({ chain: h.chain, anchorSeq: h.anchorSeq, seq: h.seq, hash: h.hash, signature: h.signature }));
  const events = rows.map(toEvent);
  const verified = verifyEvidence(key, { events, heads: chainHeads, anchor: anchor ? { count: anchor.count, hash: anchor.hash, signature: anchor.signature } : null, witness: options.witness });
  if (!verified.ok) return verified;
  const subjects = await evidenceSubjects(prisma);
  const missing =
    missingEvidence(subjects, events.map((e) => e.body)) ?? mismatchedLabel(subjects.labels ?? [], events) ?? labelWithoutRow(subjects.labels ?? [], events, await storedRunsOf(prisma, events.filter((e) => e.body.kind === 'label').map((e) => e.chain)));
  if (missing) return { ok: false, chain: missing.chain, seq: null, reason: missing.reason };
  const removed: Record<string, number> = {};
  for (const e of events) if (e.body.kind === 'retention') removed[e.body.policyVersion ?? '?'] = (removed[e.body.policyVersion ?? '?'] ?? 0) + (e.body.removed?.length ?? 0);
  const redactionSince = await redactionSinceOf(prisma, events);
  return { ...verified, erased: erasureSeqs(events).size, ...(Object.keys(removed).length ? { removedByRetention: removed } : {}), ...(redactionSince.length ? { redactionSince } : {}) };
}

/**
 * The tenant's runs stored before its classes applied at `since` and not rewritten under them since
 * (redact --rewrite marks Run.redactedAt): their content is as it was stored then.
 */
export const storedBeforeWhere = (tenant: string, since: Date) => ({ tenant, createdAt: { lt: since }, OR: [{ redactedAt: null }, { redactedAt: { lt: since } }] });

/**
 * Per tenant whose redaction classes are recorded (issue 33), the newest: which classes, since when,
 * and how many of its runs were stored before they applied (their content is as it was stored then).
 */
async function redactionSinceOf(prisma: Prisma, events: readonly EvidenceEvent[]): Promise<RedactionSince[]> {
  const newest = new Map<string, EvidenceEvent['body']>();
  for (const e of events) if (e.body.kind === 'redaction_classes' && e.body.rule !== null) newest.set(e.body.rule, e.body);
  const out: RedactionSince[] = [];
  const rewritten = new Map<string, number>();
  for (const e of events) {
    const b = e.body;
    if (b.kind !== 'redaction_rewrite' || b.rule === null || newest.get(b.rule) === undefined || b.at < newest.get(b.rule)!.at) continue;
    rewritten.set(b.rule, (rewritten.get(b.rule) ?? 0) + (b.rewritten?.length ?? 0));
  }
  for (const [tenant, body] of [...newest].sort(([a], [b]) => a.localeCompare(b))) {
    const since = new Date(body.at);
    // A run redact --rewrite rewrote since then holds its content as if stored under them.
    const storedBefore = await prisma.run.count({ where: storedBeforeWhere(tenant, since) });
    out.push({ tenant, classes: body.redactions, since: body.at, storedBefore, rewritten: rewritten.get(tenant) ?? 0 });
  }
  return out;
}

/** Which of `ids` are stored runs (audit verify: a label event of a run removed whole has no row to match). */
async function storedRunsOf(prisma: Prisma, ids: readonly string[]): Promise<Set<string>> {
  const unique = [...new Set(ids)];
  const out = new Set<string>();
  for (let i = 0; i < unique.length; i += 1000) {
    for (const r of await prisma.run.findMany({ where: { id: { in: unique.slice(i, i + 1000) } }, select: { id: true } })) out.add(r.id);
  }
  return out;
}

/** The records evidence is about (evidence-crosscheck.ts). */
async function evidenceSubjects(prisma: Prisma): Promise<EvidenceSubjects> {
  const [runs, journal, ledger, decisions, labels] = await Promise.all([
    prisma.governedRun.findMany({ select: { runId: true, status: true }, orderBy: { createdAt: 'asc' } }),
    prisma.effectJournalEntry.findMany({ select: { operationKey: true, runId: true, status: true }, orderBy: { createdAt: 'asc' } }),
    prisma.restockLedgerRecord.findMany({ select: { operationKey: true, runId: true }, orderBy: { createdAt: 'asc' } }),
    prisma.approvalDecision.findMany({ select: { requestId: true, reviewerId: true, request: { select: { runId: true, callId: true } } }, orderBy: { createdAt: 'asc' } }),
    prisma.runLabel.findMany({ orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] }),
  ]);
  return {
    runs,
    journal,
    ledger,
    decisions: decisions.map((d) => ({ requestId: d.requestId, reviewerId: d.reviewerId, runId: d.request.runId, callId: d.request.callId })),
    labels: labels.map(labelSubject),
  };
}

/** A stored label row as the cross-check reads it, its digest recomputed from its columns. */
export function labelSubject(r: {
  id: string;
  runId: string;
  step: number | null;
  labelSetVersion: number;
  verdict: string;
  category: string | null;
  score: number | null;
  comment: string;
  createdBy: string;
  createdAt: Date | string;
  digest: string;
  evidenceSeq: number;
}): LabelSubject {
  const createdAt = typeof r.createdAt === 'string' ? r.createdAt : r.createdAt.toISOString();
  return {
    id: r.id,
    runId: r.runId,
    evidenceSeq: r.evidenceSeq,
    step: r.step,
    verdict: r.verdict,
    category: r.category,
    createdBy: r.createdBy,
    digest: r.digest,
    recomputed: labelDigest({ ...r, createdAt }),
    commentErased: r.comment === ERASED,
  };
}

/**
 * The evidence bundle of run `runId` of `tenant` (evidence-bundle.ts); another tenant's run, or a run
 * without evidence, is not found.
 */
export async function evidenceBundleOfRun(prisma: Prisma, tenant: string, runId: string): Promise<EvidenceBundle> {
  const run = await prisma.run.findUnique({ where: { id: runId }, select: { tenant: true } });
  if (!run || run.tenant !== tenant) throw new NotFoundError('run', runId);
  const [head, rows] = await Promise.all([
    prisma.evidenceChain.findUnique({ where: { chain: runId } }),
    prisma.evidenceEvent.findMany({ where: { chain: runId }, orderBy: { seq: 'asc' } }),
  ]);
  if (!head) throw new NotFoundError('evidence of run', runId);
  return evidenceBundle(
    runId,
    { chain: head.chain, anchorSeq: head.anchorSeq, seq: head.seq, hash: head.hash, signature: head.signature },
    rows.map((r) => {
      const { runIdColumn: _column, ...event } = toEvent(r);
      return event;
    }),
  );
}
