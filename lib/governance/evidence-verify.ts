/**
 * Verifies stored evidence: every chain (contiguous numbering, links, recomputed hashes, event
 * signatures, the run id column against the body), every chain's signed head (so deleting a chain's
 * last events shows), and the signed anchor (so deleting a whole chain with its head shows). Reports
 * the first bad event, in chain order, with what is wrong.
 */
import { chainOf, EvidenceBodySchema, eventHash, GENESIS_HASH, type EvidenceEvent, type StoredEvidence } from './evidence';
import { ANCHOR_GENESIS, anchorHash, checkAnchor, checkEvent, checkHead, signatureProblem, type ChainHead, type EvidenceKey } from './evidence-signing';

export type ChainVerification =
  | { ok: true; events: number; chains: number; unsealed: number; head: string; /** Runs whose content was erased (stored evidence only). */ erased?: number; /** Runs the retention schedule removed, by policy version (stored evidence only). */ removedByRetention?: Record<string, number>; /** Per tenant, the redaction classes in force, since when, and how many runs were stored before (stored evidence only). */ redactionSince?: RedactionSince[] }
  | { ok: false; chain: string; seq: number | null; reason: string };

/** A tenant's redaction classes (issue 33): in force since `since`; `storedBefore` runs were stored before they applied. */
export interface RedactionSince {
  tenant: string;
  classes: string[];
  since: string;
  storedBefore: number;
  /** Runs `redact --rewrite` rewrote under these classes (they no longer count as stored before). */
  rewritten: number;
}

/** The newest anchor as written outside the database (evidence-witness.ts): a count and its signed digest. */
export interface WitnessAnchor {
  count: number;
  hash: string;
  signature: string;
}

/** An event as stored: the run id column is kept apart from the body so an edit of it shows. */
export type StoredEvent = EvidenceEvent & { runIdColumn: string | null };

/** Verifies one chain's events against its signed head (null: intact). Exported for evidence bundles. */
export function verifyOne(key: EvidenceKey, head: ChainHead | undefined, events: readonly StoredEvent[]): ChainVerification | null {
  const chain = events[0]?.chain ?? head?.chain ?? '';
  const bad = (seq: number | null, reason: string): ChainVerification => ({ ok: false, chain, seq, reason });
  let prev = GENESIS_HASH;
  for (const [i, e] of events.entries()) {
    const expected = i + 1;
    if (e.seq !== expected) return bad(expected, `event ${expected} is missing (found event ${e.seq} after event ${expected - 1})`);
    const body = EvidenceBodySchema.safeParse(e.body);
    if (!body.success) return bad(e.seq, `event ${e.seq} has a malformed body`);
    if (e.runIdColumn !== body.data.runId) return bad(e.seq, `event ${e.seq}'s run id column (${e.runIdColumn ?? 'null'}) differs from its signed body (${body.data.runId ?? 'null'})`);
    if (chainOf(body.data) !== e.chain) return bad(e.seq, `event ${e.seq} was moved into chain ${e.chain} from chain ${chainOf(body.data)}`);
    if (e.prevHash !== prev) return bad(e.seq, `event ${e.seq} does not link to the event before it`);
    if (eventHash(e.seq, e.prevHash, body.data) !== e.hash) return bad(e.seq, `event ${e.seq} was edited (its hash does not match its content)`);
    const signed = checkEvent(key, { chain: e.chain, seq: e.seq, hash: e.hash, runId: body.data.runId }, e.signature);
    if (signed !== 'ok') return bad(e.seq, signatureProblem(signed, `event ${e.seq}`, e.signature) || `event ${e.seq} is not signed by the evidence key (forged, or its hashes were recomputed)`);
    prev = e.hash;
  }
  if (!head) return bad(events[0]?.seq ?? null, `chain ${chain} has events but no signed head`);
  const headSigned = checkHead(key, head);
  if (headSigned !== 'ok') return bad(null, signatureProblem(headSigned, `the head of chain ${chain}`, head.signature) || `the head of chain ${chain} is not signed by the evidence key (edited, or another key)`);
  const last = events.at(-1);
  if ((last?.seq ?? 0) < head.seq) return bad((last?.seq ?? 0) + 1, `events ${(last?.seq ?? 0) + 1}–${head.seq} of chain ${chain} were deleted (the signed head is at event ${head.seq})`);
  if ((last?.seq ?? 0) > head.seq || last?.hash !== head.hash) return bad(head.seq + 1 <= (last?.seq ?? 0) ? head.seq + 1 : (last?.seq ?? null), `chain ${chain} does not end where its signed head says (event ${head.seq})`);
  return null;
}

/** Verifies everything stored; `key` is the evidence key the events were signed with. */
export function verifyEvidence(
  key: EvidenceKey,
  stored: { events: readonly StoredEvent[]; heads: readonly ChainHead[]; anchor: StoredEvidence['anchor']; witness?: WitnessAnchor },
): ChainVerification {
  const byChain = new Map<string, StoredEvent[]>();
  for (const e of stored.events) {
    const list = byChain.get(e.chain) ?? [];
    list.push(e);
    byChain.set(e.chain, list);
  }
  const heads = new Map(stored.heads.map((h) => [h.chain, h]));
  const ordered = stored.heads.filter((h) => h.anchorSeq !== null).sort((a, b) => a.anchorSeq! - b.anchorSeq!);
  const unsealed = stored.heads.filter((h) => h.anchorSeq === null).map((h) => h.chain).sort();
  // Sealed chains in anchor order, then unsealed ones, then events without any head.
  const names = [...ordered.map((h) => h.chain), ...unsealed, ...[...byChain.keys()].filter((c) => !heads.has(c)).sort()];
  for (const name of names) {
    const events = (byChain.get(name) ?? []).sort((a, b) => a.seq - b.seq);
    const broken = verifyOne(key, heads.get(name), events);
    if (broken) return broken;
  }
  if (ordered.length > 0 || stored.anchor || stored.witness) {
    const anchor = stored.anchor;
    if (!anchor) return { ok: false, chain: ordered[0]?.chain ?? '(anchor)', seq: null, reason: 'the anchor that registers every chain is missing' };
    const anchorSigned = checkAnchor(key, anchor);
    if (anchorSigned !== 'ok') return { ok: false, chain: '(anchor)', seq: null, reason: signatureProblem(anchorSigned, 'the anchor', anchor.signature) || 'the anchor is not signed by the evidence key' };
    let hash = ANCHOR_GENESIS;
    for (const [i, h] of ordered.entries()) {
      if (h.anchorSeq !== i + 1) return { ok: false, chain: h.chain, seq: null, reason: `chain number ${i + 1} in the anchor was deleted (found chain ${h.anchorSeq} next)` };
      hash = anchorHash(hash, h.chain);
      if (stored.witness && i + 1 === stored.witness.count && hash !== stored.witness.hash) {
        return { ok: false, chain: '(witness)', seq: null, reason: `the chains registered in the anchor differ from the witness's at chain ${i + 1}` };
      }
    }
    if (ordered.length < anchor.count) return { ok: false, chain: '(anchor)', seq: null, reason: `chains ${ordered.length + 1}–${anchor.count} of the anchor were deleted with their events` };
    if (ordered.length > anchor.count || hash !== anchor.hash) return { ok: false, chain: '(anchor)', seq: null, reason: 'the chains registered in the anchor differ from the stored chains' };
  }
  const w = stored.witness;
  if (w) {
    const witnessSigned = checkAnchor(key, w);
    if (witnessSigned !== 'ok') return { ok: false, chain: '(witness)', seq: null, reason: signatureProblem(witnessSigned, 'the witness', w.signature) || 'the witness is not signed by the evidence key' };
    if (ordered.length < w.count) {
      return {
        ok: false,
        chain: '(witness)',
        seq: null,
        reason: `the database's anchor registers ${ordered.length} chain(s) but the witness outside it registered ${w.count}: the database was rolled back or chains were deleted with an older anchor restored`,
      };
    }
  }
  return { ok: true, events: stored.events.length, chains: stored.heads.length, unsealed: unsealed.length, head: stored.anchor?.hash ?? ANCHOR_GENESIS };
}
