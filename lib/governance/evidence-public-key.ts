/**
 * The Ed25519 key pair evidence is signed with (public-key evidence): the private key signs chain
 * heads, events, the anchor and the witness; the public key is all an auditor needs to verify, and
 * it cannot sign. Kept outside the database in one PEM file (STOCKROOM_EVIDENCE_SIGNING_KEY_FILE,
 * default .data/evidence-signing-key.pem, mode 0600, created on first use by the server): the
 * current PRIVATE KEY block, then a PUBLIC KEY block per retired key so chains signed before a
 * rotation keep verifying. `audit public-key` prints the public keys; `audit rotate-key` rotates.
 */
import { createPublicKey, generateKeyPairSync, createPrivateKey, type KeyObject } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { GovernanceError } from './errors';
import { publicKeyId } from './evidence-signing';

export const DEFAULT_EVIDENCE_SIGNING_KEY_FILE = '.data/evidence-signing-key.pem';

type Env = Readonly<Record<string, string | undefined>>;

/** The current Ed25519 private key and the public keys of retired ones. */
export interface SigningKeys {
  file: string;
  privateKey: KeyObject;
  retired: KeyObject[];
}

/** Where the signing key file is. */
export function signingKeyPath(env: Env = process.env): string {
  return path.resolve(env.STOCKROOM_EVIDENCE_SIGNING_KEY_FILE?.trim() || DEFAULT_EVIDENCE_SIGNING_KEY_FILE);
}

const PEM_BLOCK = /-----BEGIN ([A-Z ]+)-----[\s\S]+?-----END \1-----/g;

function pemBlocks(text: string): { label: string; pem: string }[] {
  return [...text.matchAll(PEM_BLOCK)].map((m) => ({ label: m[1]!, pem: m[0] }));
}

function ed25519(key: KeyObject, file: string): KeyObject {
  if (key.asymmetricKeyType !== 'ed25519') throw new GovernanceError('evidence_key', `${file} holds a ${key.asymmetricKeyType ?? 'non-asymmetric'} key; evidence keys are Ed25519`);
  return key;
}

/** Parses a signing key file's text: exactly one PRIVATE KEY block, any number of PUBLIC KEY blocks. */
export function parseSigningKeys(text: string, file: string): SigningKeys {
  const blocks = pemBlocks(text);
  const privates = blocks.filter((b) => b.label === 'PRIVATE KEY');
  if (privates.length !== 1) throw new GovernanceError('evidence_key', `${file} must hold exactly one Ed25519 PRIVATE KEY block (found ${privates.length})`);
  try {
    const privateKey = ed25519(createPrivateKey(privates[0]!.pem), file);
    const retired = blocks.filter((b) => b.label === 'PUBLIC KEY').map((b) => ed25519(createPublicKey(b.pem), file));
    return { file, privateKey, retired };
  } catch (err) {
    if (err instanceof GovernanceError) throw err;
    throw new GovernanceError('evidence_key', `${file} holds a key that cannot be read: ${(err as Error).message}`);
  }
}

/**
 * Parses an auditor's public key file: one or more PUBLIC KEY blocks (what `audit public-key` prints).
 * A file that holds a private key is refused: verification must not need, or expose, one.
 */
export function parsePublicKeys(text: string, file: string): KeyObject[] {
  const blocks = pemBlocks(text);
  if (blocks.some((b) => b.label.includes('PRIVATE'))) throw new GovernanceError('evidence_key', `${file} holds a private key; verify with the public key alone (audit public-key prints it)`);
  const keys = blocks.filter((b) => b.label === 'PUBLIC KEY');
  if (keys.length === 0) throw new GovernanceError('evidence_key', `${file} holds no PUBLIC KEY block`);
  try {
    return keys.map((b) => ed25519(createPublicKey(b.pem), file));
  } catch (err) {
    if (err instanceof GovernanceError) throw err;
    throw new GovernanceError('evidence_key', `${file} holds a public key that cannot be read: ${(err as Error).message}`);
  }
}

function serialise(keys: { privateKey: KeyObject; retired: readonly KeyObject[] }): string {
  const pem = (k: KeyObject, type: 'pkcs8' | 'spki') => String(k.export({ type, format: 'pem' })).trim();
  return [pem(keys.privateKey, 'pkcs8'), ...keys.retired.map((k) => pem(k, 'spki'))].join('\n') + '\n';
}

function writeAtomically(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
  fs.writeFileSync(tmp, text, { mode: 0o600 });
  fs.renameSync(tmp, file);
}

/**
 * Loads the signing keys; with `create` (the server) a missing file is created with a new key pair.
 * Null when the file is missing and `create` is false. Throws GovernanceError naming the file.
 */
export function loadSigningKeys({ env = process.env, create = true }: { env?: Env; create?: boolean } = {}): SigningKeys | null {
  const file = signingKeyPath(env);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw new GovernanceError('evidence_key', `cannot read the evidence signing key ${file}: ${(err as Error).message}`);
    if (!create) return null;
    const { privateKey } = generateKeyPairSync('ed25519');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    try {
      fs.writeFileSync(file, serialise({ privateKey, retired: [] }), { mode: 0o600, flag: 'wx' });
    } catch (e) {
      // Another process created it first: use theirs.
      if ((e as NodeJS.ErrnoException).code === 'EEXIST') return loadSigningKeys({ env, create: false });
      throw e;
    }
    return { file, privateKey, retired: [] };
  }
  return parseSigningKeys(text, file);
}

/**
 * Rotates the signing key: a new private key signs from now on; the old one's public key is kept
 * (as a retired PUBLIC KEY block) so everything it signed keeps verifying. Returns both ids.
 */
export function rotateSigningKey({ env = process.env }: { env?: Env } = {}): { file: string; previous: string | null; current: string } {
  const held = loadSigningKeys({ env, create: false });
  const { privateKey } = generateKeyPairSync('ed25519');
  const retired = held ? [...held.retired, createPublicKey(held.privateKey)] : [];
  const file = signingKeyPath(env);
  writeAtomically(file, serialise({ privateKey, retired }));
  return { file, previous: held ? publicKeyId(createPublicKey(held.privateKey)) : null, current: publicKeyId(createPublicKey(privateKey)) };
}

/** The public keys as PEM (current first, then retired), what an auditor is given. */
export function publicKeysPem(keys: Pick<SigningKeys, 'privateKey' | 'retired'>): string {
  return [createPublicKey(keys.privateKey), ...keys.retired].map((k) => String(k.export({ type: 'spki', format: 'pem' })).trim()).join('\n') + '\n';
}
