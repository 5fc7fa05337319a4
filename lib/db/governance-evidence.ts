import 'server-only';
/**
 * The evidence chains in the database: one chain per run, so appends of different runs never
 * contend. An append is one short transaction that locks only its own chain's head row (an UPDATE …
 * RETURNING; concurrent appends to the same chain queue on the row instead of retrying), inserts the
 * signed event and re-signs the head. A chain's first event also registers the chain in the signed
 * anchor — one row update per run, not per event.
 */
import { chainOf, EvidenceBodySchema, chainNext, GENESIS_HASH, type EvidenceBody, type EvidenceEvent, type EvidenceSink } from '../governance/evidence';
import { evidenceKey } from '../governance/evidence-key';
import { ANCHOR_ID, anchorNext, signHead, type ChainHead, type EvidenceKey } from '../governance/evidence-signing';
import { verifyEvidence, type ChainVerification, type StoredEvent } from '../governance/evidence-verify';
import { canonicalJson } from '../governance/canonical-json';
import { safeJsonParse } from '../harness/json';
import type { Prisma } from './client';
import { DbError } from './errors';

/** A chain's first append can race another first append of the same chain; the loser retries once it exists. */
const MAX_APPEND_ATTEMPTS = 5;
/** Appends wait for a pooled connection under load instead of failing. */
const TX_OPTIONS = { maxWait: 30_000, timeout: 30_000 };

export type Tx = Parameters<Parameters<Prisma['$transaction']>[0]>[0];
const isUniqueViolation = (err: unknown) => (err as { code?: string }).code === 'P2002';

async function lockHead(tx: Tx, chain: string): Promise<{ seq: number; hash: string; anchorSeq: number } | null> {
  // Takes the row lock and the next number in one statement (PostgreSQL and SQLite both return it).
  const rows = await tx.$queryRaw<{ seq: number | bigint; hash: string; anchorSeq: number | bigint }[]>`
    UPDATE "EvidenceChain" SET "seq" = "seq" + 1 WHERE "chain" = ${chain} RETURNING "seq", "hash", "anchorSeq"`;
  const r = rows[0];
  return r ? { seq: Number(r.seq) - 1, hash: r.hash, anchorSeq: Number(r.anchorSeq) } : null;
}

async function registerChain(tx: Tx, key: EvidenceKey, chain: string): Promise<number> {
  const current = await tx.evidenceAnchor.findUnique({ where: { id: ANCHOR_ID } });
  if (!current) {
    const first = anchorNext(key, null, chain);
    await tx.evidenceAnchor.create({ data: { id: ANCHOR_ID, ...first } });
    return first.count;
  }
  // Lock the anchor row, then re-read it under the lock.
  await tx.$executeRaw`UPDATE "EvidenceAnchor" SET "count" = "count" WHERE "id" = ${ANCHOR_ID}`;
  const locked = await tx.evidenceAnchor.findUniqueOrThrow({ where: { id: ANCHOR_ID } });
  const next = anchorNext(key, locked, chain);
  await tx.evidenceAnchor.update({ where: { id: ANCHOR_ID }, data: next });
  return next.count;
}

/**
 * Appends inside a caller's transaction (so evidence commits with the change it records). The
 * caller retries the transaction on a unique violation (two first appends of one chain).
 */
export async function appendEvidenceIn(tx: Tx, key: EvidenceKey, body: EvidenceBody): Promise<EvidenceEvent> {
  const chain = chainOf(body);
  let head = await lockHead(tx, chain);
  if (!head) {
    const anchorSeq = await registerChain(tx, key, chain);
    await tx.evidenceChain.create({ data: { chain, anchorSeq, seq: 1, hash: GENESIS_HASH, signature: '' } });
    head = { seq: 0, hash: GENESIS_HASH, anchorSeq };
  }
  const event = chainNext(key, head.seq === 0 ? null : head, body);
  await tx.evidenceEvent.create({
    data: { chain, seq: event.seq, prevHash: event.prevHash, hash: event.hash, signature: event.signature, body: canonicalJson(event.body), runId: body.runId },
  });
  const signed = signHead(key, { chain, anchorSeq: head.anchorSeq, seq: event.seq, hash: event.hash });
  await tx.evidenceChain.update({ where: { chain }, data: { hash: signed.hash, signature: signed.signature } });
  return event;
}

/** Runs `work` in a transaction, again when a first append of a chain lost a race. */
export async function withEvidenceTx<T>(prisma: Prisma, work: (tx: Tx) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await prisma.$transaction(work, TX_OPTIONS);
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
  ) {}

  append(body: EvidenceBody): Promise<EvidenceEvent> {
    return withEvidenceTx(this.prisma, (tx) => appendEvidenceIn(tx, this.key, body));
  }
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

/** Verifies every stored chain, its signed head and the anchor with `key` (the server's key by default). */
export async function verifyStoredChain(prisma: Prisma, key: EvidenceKey = evidenceKey()): Promise<ChainVerification> {
  const [rows, heads, anchor] = await Promise.all([
    prisma.evidenceEvent.findMany({ orderBy: [{ chain: 'asc' }, { seq: 'asc' }] }),
    prisma.evidenceChain.findMany(),
    prisma.evidenceAnchor.findUnique({ where: { id: ANCHOR_ID } }),
  ]);
  const chainHeads: ChainHead[] = heads.map((h) => ({ chain: h.chain, anchorSeq: h.anchorSeq, seq: h.seq, hash: h.hash, signature: h.signature }));
  return verifyEvidence(key, { events: rows.map(toEvent), heads: chainHeads, anchor: anchor ? { count: anchor.count, hash: anchor.hash, signature: anchor.signature } : null });
}
