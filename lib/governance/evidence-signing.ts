/**
 * Signatures over the evidence chains, made with keys that live outside the database:
 *
 *   - Ed25519 (public-key evidence): the server signs with its private key (evidence-public-key.ts);
 *     an auditor verifies with the public key alone and cannot forge. A signature reads
 *     `ed25519:<key id>:<base64>`, the key id being the first 16 hex of SHA-256 of the public key (DER),
 *     so a rotated key leaves older chains verifiable with the retired public key.
 *   - HMAC-SHA256 (STOCKROOM_EVIDENCE_KEY or its key file): what databases signed before public-key
 *     evidence hold (hex). They keep verifying with that secret; whoever holds it could also forge.
 *
 * Anyone who can write the database can recompute hashes; without the private key (or the secret)
 * they cannot produce these signatures.
 *
 *   event  signature = sign(canonicalJson({ chain, seq, hash, runId }))
 *   head   signature = sign(canonicalJson({ chain, anchorSeq, seq, hash }))      one per chain
 *   anchor hash(n)   = SHA-256(canonicalJson({ prev: hash(n-1), chain }))        one per sealed chain
 *          signature = sign(canonicalJson({ count, hash }))
 *
 * A chain is sealed into the anchor by the sweeper shortly after it starts (anchorSeq null until
 * then), so appends never wait on one shared row; a sealed chain deleted with its head shows.
 */
import { createHash, createHmac, createPublicKey, sign as edSign, timingSafeEqual, verify as edVerify, type KeyObject } from 'node:crypto';
import { canonicalDigest, canonicalJson } from './canonical-json';

/** Keys evidence is signed and verified with. */
export interface EvidenceKeyring {
  /** The HMAC secret: signs when there is no Ed25519 key, verifies HMAC signatures; null for a public-key-only verifier. */
  secret: Buffer | null;
  /** The Ed25519 key new signatures are made with (null: HMAC, or a verifier). */
  signing: { id: string; privateKey: KeyObject } | null;
  /** Every Ed25519 public key by id, current and retired, for verification. */
  publicKeys: ReadonlyMap<string, KeyObject>;
}

/** The signing key: a raw HMAC secret (what databases signed before public-key evidence use), or a keyring. */
export type EvidenceKey = Buffer | EvidenceKeyring;

/** A fixed key for unit tests only; the app and the CLI load theirs (evidence-key.ts). */
export const TEST_EVIDENCE_KEY: EvidenceKey = Buffer.from('stockroom-evidence-test-key-not-for-production');

const ANCHOR_GENESIS = '0'.repeat(64);
/** The id of the single anchor row. */
export const ANCHOR_ID = 'root';
const ED25519_PREFIX = 'ed25519:';

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

/** A key as a keyring (a raw secret is an HMAC-only keyring). */
export function keyringOf(key: EvidenceKey): EvidenceKeyring {
  return Buffer.isBuffer(key) ? { secret: key, signing: null, publicKeys: new Map() } : key;
}

/** The id of an Ed25519 public key: the first 16 hex of SHA-256 of its DER (SPKI) form. */
export function publicKeyId(publicKey: KeyObject): string {
  return createHash('sha256').update(publicKey.export({ type: 'spki', format: 'der' })).digest('hex').slice(0, 16);
}

/** A keyring that holds only public keys (an auditor's): verifies Ed25519 signatures, signs nothing. */
export function publicKeyring(publicKeys: readonly KeyObject[]): EvidenceKeyring {
  return { secret: null, signing: null, publicKeys: new Map(publicKeys.map((k) => [publicKeyId(k), k])) };
}

/** A keyring signing with `privateKey` (Ed25519), verifying with it and `retired` public keys, and HMAC `secret` for older signatures. */
export function signingKeyring(privateKey: KeyObject, retired: readonly KeyObject[] = [], secret: Buffer | null = null): EvidenceKeyring {
  const current = createPublicKey(privateKey);
  const id = publicKeyId(current);
  return { secret, signing: { id, privateKey }, publicKeys: new Map([...retired.map((k) => [publicKeyId(k), k] as const), [id, current]]) };
}

function sign(key: EvidenceKey, value: unknown): string {
  const ring = keyringOf(key);
  const data = Buffer.from(canonicalJson(value as never), 'utf8');
  if (ring.signing) return `${ED25519_PREFIX}${ring.signing.id}:${edSign(null, data, ring.signing.privateKey).toString('base64')}`;
  if (ring.secret) return createHmac('sha256', ring.secret).update(data).digest('hex');
  throw new Error('evidence: this keyring holds public keys only and cannot sign');
}

/** What checking one signature found. */
export type SignatureCheck = 'ok' | 'bad' | 'needs_secret' | 'unknown_key';

/** Checks `signature` over `value`: Ed25519 with the keyring's public key of its id, otherwise HMAC with the secret. */
export function checkSignature(key: EvidenceKey, value: unknown, signature: string): SignatureCheck {
  const ring = keyringOf(key);
  const data = Buffer.from(canonicalJson(value as never), 'utf8');
  if (signature.startsWith(ED25519_PREFIX)) {
    const [id, b64] = signature.slice(ED25519_PREFIX.length).split(':');
    const publicKey = id === undefined ? undefined : ring.publicKeys.get(id);
    if (!publicKey || b64 === undefined) return 'unknown_key';
    try {
      return edVerify(null, data, publicKey, Buffer.from(b64, 'base64')) ? 'ok' : 'bad';
    } catch {
      return 'bad';
    }
  }
  if (!ring.secret) return 'needs_secret';
  return sameSignature(createHmac('sha256', ring.secret).update(data).digest('hex'), signature) ? 'ok' : 'bad';
}

/** Why a signature did not check, in words (`what`: "event 3", "the head of chain r1"). */
export function signatureProblem(check: Exclude<SignatureCheck, 'ok'>, what: string, signature: string): string {
  if (check === 'needs_secret') return `${what} is signed with the HMAC evidence key (from before public-key evidence): verifying it needs that secret`;
  if (check === 'unknown_key') return `${what} is signed by Ed25519 key ${signature.split(':')[1] ?? '?'}, which none of the public keys given is`;
  return '';
}

/** Constant-time comparison of two hex signatures. */
export function sameSignature(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
}

const eventPayload = (e: { chain: string; seq: number; hash: string; runId: string | null }) => ({ chain: e.chain, seq: e.seq, hash: e.hash, runId: e.runId });
const headPayload = (h: Omit<ChainHead, 'signature'>) => ({ chain: h.chain, anchorSeq: h.anchorSeq, seq: h.seq, hash: h.hash });
const anchorPayload = (a: Pick<AnchorHead, 'count' | 'hash'>) => ({ count: a.count, hash: a.hash });

export function signEvent(key: EvidenceKey, e: { chain: string; seq: number; hash: string; runId: string | null }): string {
  return sign(key, eventPayload(e));
}
export function checkEvent(key: EvidenceKey, e: { chain: string; seq: number; hash: string; runId: string | null }, signature: string): SignatureCheck {
  return checkSignature(key, eventPayload(e), signature);
}

export function signHead(key: EvidenceKey, h: Omit<ChainHead, 'signature'>): ChainHead {
  return { ...h, signature: sign(key, headPayload(h)) };
}
export function checkHead(key: EvidenceKey, h: ChainHead): SignatureCheck {
  return checkSignature(key, headPayload(h), h.signature);
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
  return sign(key, anchorPayload(a));
}
export function checkAnchor(key: EvidenceKey, a: AnchorHead): SignatureCheck {
  return checkSignature(key, anchorPayload(a), a.signature);
}

/** Signs a whole document (an erasure receipt) with the evidence key: `sign(canonicalJson(value))`. */
export function signDocument(key: EvidenceKey, value: unknown): string {
  return sign(key, value);
}

export { ANCHOR_GENESIS };
