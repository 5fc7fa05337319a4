/**
 * Where the evidence keys come from (the Ed25519 signing key: evidence-public-key.ts). The HMAC key — never the database it protects:
 *   STOCKROOM_EVIDENCE_KEY (at least 32 characters), else the key file (STOCKROOM_EVIDENCE_KEY_FILE,
 *   default .data/evidence-key next to the generated auth secret), created with mode 0600 on first
 *   use by the server. `audit verify` only reads it: verifying with a made-up key would prove nothing.
 */
import { createPublicKey, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { GovernanceError } from './errors';
import { loadSigningKeys } from './evidence-public-key';
import { keyringOf, publicKeyring, signingKeyring, type EvidenceKey, type EvidenceKeyring } from './evidence-signing';

const MIN_KEY_CHARS = 32;
export const DEFAULT_EVIDENCE_KEY_FILE = '.data/evidence-key';

export interface EvidenceKeySource {
  env?: Readonly<Record<string, string | undefined>>;
  /** Create the key file when it is missing (the server); false for verification. */
  create?: boolean;
}

/** Loads the evidence key; throws GovernanceError('evidence_key') naming the variable or file. */
export function loadEvidenceKey({ env = process.env, create = true }: EvidenceKeySource = {}): Buffer {
  const given = env.STOCKROOM_EVIDENCE_KEY;
  if (given !== undefined && given !== '') {
    if (given.length < MIN_KEY_CHARS) throw new GovernanceError('evidence_key', `STOCKROOM_EVIDENCE_KEY must have at least ${MIN_KEY_CHARS} characters`);
    return Buffer.from(given, 'utf8');
  }
  const file = path.resolve(env.STOCKROOM_EVIDENCE_KEY_FILE || DEFAULT_EVIDENCE_KEY_FILE);
  try {
    const stored = fs.readFileSync(file, 'utf8').trim();
    if (stored.length >= MIN_KEY_CHARS) return Buffer.from(stored, 'utf8');
    throw new GovernanceError('evidence_key', `the evidence key file ${file} holds fewer than ${MIN_KEY_CHARS} characters`);
  } catch (err) {
    if (err instanceof GovernanceError) throw err;
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw new GovernanceError('evidence_key', `cannot read the evidence key file ${file}: ${(err as Error).message}`);
  }
  if (!create) throw new GovernanceError('evidence_key', `no evidence key: set STOCKROOM_EVIDENCE_KEY or provide ${file} (the key the server signed with)`);
  const key = randomBytes(32).toString('hex');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  try {
    fs.writeFileSync(file, `${key}\n`, { mode: 0o600, flag: 'wx' });
  } catch (err) {
    // Another process created it first: use theirs.
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return loadEvidenceKey({ env, create: false });
    throw err;
  }
  return Buffer.from(key, 'utf8');
}

const cache = globalThis as unknown as { __stockroomEvidenceKey?: EvidenceKey };

/**
 * The process's evidence keys (loaded once): the Ed25519 signing key (created on first use) signs;
 * its retired public keys and the HMAC secret verify what was signed before.
 */
export function evidenceKey(): EvidenceKey {
  cache.__stockroomEvidenceKey ??= serverKeyring();
  return cache.__stockroomEvidenceKey;
}

/** The HMAC evidence secret of this process (other secrets are derived from it, e.g. OAuth sealing). */
export function evidenceSecret(): Buffer {
  return keyringOf(evidenceKey()).secret!;
}

/** The server's keyring: Ed25519 signing key (created when missing) and the HMAC secret. */
export function serverKeyring(env: Readonly<Record<string, string | undefined>> = process.env): EvidenceKeyring {
  const secret = loadEvidenceKey({ env });
  const keys = loadSigningKeys({ env, create: true })!;
  return signingKeyring(keys.privateKey, keys.retired, secret);
}

/**
 * What `audit verify` checks with, read only (nothing is created): the HMAC secret and, when the
 * signing key file exists, its public keys (the private key is never used to verify).
 */
export function verifierKeyring(env: Readonly<Record<string, string | undefined>> = process.env): EvidenceKeyring {
  const secret = loadEvidenceKey({ env, create: false });
  const keys = loadSigningKeys({ env, create: false });
  if (!keys) return { secret, signing: null, publicKeys: new Map() };
  return { ...publicKeyring([createPublicKey(keys.privateKey), ...keys.retired]), secret };
}
