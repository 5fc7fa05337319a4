/**
 * A subject's pseudonym key (issue 33): 32 random bytes, kept only sealed (AES-256-GCM under a key
 * derived from the evidence key, which lives outside the database), so a copy of the database alone
 * cannot recompute a token from a guessed value. Erasing the subject deletes it: crypto-shredding.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { GovernanceError } from './errors';

const sealKey = (rootKey: Buffer) => Buffer.from(hkdfSync('sha256', rootKey, Buffer.alloc(0), 'stockroom pseudonym keys v1', 32));

/** A new pseudonym key. */
export function newPseudonymKey(): Buffer {
  return randomBytes(32);
}

/** `v1.<iv>.<tag>.<ciphertext>`, base64url parts. */
export function sealPseudonymKey(key: Buffer, rootKey: Buffer): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', sealKey(rootKey), iv);
  const data = Buffer.concat([cipher.update(key), cipher.final()]);
  return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), data.toString('base64url')].join('.');
}

export function unsealPseudonymKey(sealed: string, rootKey: Buffer): Buffer {
  const [v, iv, tag, data] = sealed.split('.');
  if (v !== 'v1' || !iv || !tag || data === undefined) throw new GovernanceError('pseudonym_key', 'a pseudonym key is stored in an unknown form');
  try {
    const decipher = createDecipheriv('aes-256-gcm', sealKey(rootKey), Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]);
  } catch (err) {
    throw new GovernanceError('pseudonym_key', 'a pseudonym key cannot be opened with this deployment’s evidence key (was the key changed?)', { cause: err });
  }
}
