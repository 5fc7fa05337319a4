/**
 * Signatures over the evidence chains: HMAC-SHA256 under a key that lives outside the database
 * (STOCKROOM_EVIDENCE_KEY, or a key file next to the auth secret). Anyone who can write the
 * database can recompute hashes; without the key they cannot produce these signatures.
 *
 *   event  signature = HMAC(key, canonicalJson({ chain, seq, hash, runId }))
 *   head   signature = HMAC(key, canonicalJson({ chain, anchorSeq, seq, hash }))      one per chain
 *   anchor hash(n)   = SHA-256(canonicalJson({ prev: hash(n-1), chain }))              one per sealed chain
 *          signature = HMAC(key, canonicalJson({ count, hash }))
 *
 * A chain is sealed into the anchor by the sweeper shortly after it starts (anchorSeq null until
 * then), so appends never wait on one shared row; a sealed chain deleted with its head shows.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { canonicalDigest, canonicalJson } from './canonical-json';

/** The signing key (raw bytes). */
export type EvidenceKey = Buffer;

/** A fixed key for unit tests only; the app and the CLI load theirs (evidence-key.ts). */
export const TEST_EVIDENCE_KEY: EvidenceKey = Buffer.from('stockroom-evidence-test-key-not-for-production');

const ANCHOR_GENESIS = '0'.repeat(64);
/** The id of the single anchor row. */
export const ANCHOR_ID = 'root';

/** The signed head of one chain: its last event and where it sits in the anchor. */
export interface ChainHead {
  chain: string;
  /** Null until the chain is sealed into the anchor. */
  anchorSeq: number | null;
  seq: number;
  hash: string;
  signature: string;
}

/** The signed anchor: how many chains were started, and the running digest of their ids. */
export interface AnchorHead {
  count: number;
  hash: string;
  signature: string;
}

function hmac(key: EvidenceKey, value: unknown): string {
  return createHmac('sha256', key).update(canonicalJson(value as never)).digest('hex');
}

/** Constant-time comparison of two hex signatures. */
export function sameSignature(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
}

export function signEvent(key: EvidenceKey, e: { chain: string; seq: number; hash: string; runId: string | null }): string {
  return hmac(key, { chain: e.chain, seq: e.seq, hash: e.hash, runId: e.runId });
}

export function signHead(key: EvidenceKey, h: Omit<ChainHead, 'signature'>): ChainHead {
  return { ...h, signature: hmac(key, { chain: h.chain, anchorSeq: h.anchorSeq, seq: h.seq, hash: h.hash }) };
}

/** The anchor digest after registering `chain`. */
export function anchorHash(prev: string, chain: string): string {
  return canonicalDigest({ prev, chain });
}

/** The anchor after one more chain was started (the first when `prev` is null). */
export function anchorNext(key: EvidenceKey, prev: Pick<AnchorHead, 'count' | 'hash'> | null, chain: string): AnchorHead {
  const count = (prev?.count ?? 0) + 1;
  const hash = anchorHash(prev?.hash ?? ANCHOR_GENESIS, chain);
  return { count, hash, signature: signAnchor(key, { count, hash }) };
}

export function signAnchor(key: EvidenceKey, a: Pick<AnchorHead, 'count' | 'hash'>): string {
  return hmac(key, { count: a.count, hash: a.hash });
}

export { ANCHOR_GENESIS };
