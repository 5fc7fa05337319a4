/**
 * A subject's pseudonym key (issue 33): 32 random bytes, kept only sealed (AES-256-GCM under a key
 * derived from the evidence key, which lives outside the database), so a copy of the database alone
 * cannot recompute a token from a guessed value. Erasing the subject deletes it: crypto-shredding.
 */
import { randomBytes } from 'node:crypto';
import { GovernanceError } from './errors';
import { sealFor, UnsealError, unsealFor } from './sealing';

const PURPOSE = 'stockroom pseudonym keys v1';

/** A new pseudonym key. */
export function newPseudonymKey(): Buffer {
  return randomBytes(32);
}

/** `v1.<iv>.<tag>.<ciphertext>`, base64url parts (sealing.ts). */
export function sealPseudonymKey(key: Buffer, rootKey: Buffer): string {
  return sealFor(PURPOSE, key, rootKey);
}

export function unsealPseudonymKey(sealed: string, rootKey: Buffer): Buffer {
  try {
    return unsealFor(PURPOSE, sealed, rootKey);
  } catch (err) {
    if (!(err instanceof UnsealError)) throw err;
    if (err.reason === 'malformed') throw new GovernanceError('pseudonym_key', 'a pseudonym key is stored in an unknown form');
    throw new GovernanceError('pseudonym_key', 'a pseudonym key cannot be opened with this deployment’s evidence key (was the key changed?)', { cause: err.cause });
  }
}
