/**
 * An endpoint's signing secret: checked at save (at least MIN_SECRET_BYTES bytes), then kept only
 * sealed (AES-256-GCM under a key derived from the evidence key, which lives outside the database),
 * so a copy of the database does not let anyone forge this deployment's webhooks.
 */
import { randomBytes } from 'node:crypto';
import { sealFor, UnsealError, unsealFor } from '../governance';
import { NotifyError } from './errors';
import { MIN_SECRET_BYTES } from './limits';
import { secretBytes } from './sign';

/** Refuses a secret too short to sign with, naming the field `secret`. */
export function checkSecret(secret: string): void {
  if (secret.startsWith('whsec_') && !/^[A-Za-z0-9+/]+={0,2}$/.test(secret.slice('whsec_'.length))) {
    throw new NotifyError('invalid_setting', 'secret: after whsec_ must come base64', 'secret');
  }
  const bytes = secretBytes(secret).length;
  if (bytes < MIN_SECRET_BYTES) throw new NotifyError('invalid_setting', `secret: must have at least ${MIN_SECRET_BYTES} bytes (got ${bytes})`, 'secret');
}

/** A new secret in the Standard Webhooks spelling (32 random bytes). */
export function newSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

const PURPOSE = 'stockroom webhook signing secrets v1';

/** `v1.<iv>.<tag>.<ciphertext>`, base64url parts (lib/governance/sealing.ts). */
export function sealSecret(secret: string, rootKey: Buffer): string {
  return sealFor(PURPOSE, Buffer.from(secret, 'utf8'), rootKey);
}

export function unsealSecret(sealed: string, rootKey: Buffer): string {
  try {
    return unsealFor(PURPOSE, sealed, rootKey).toString('utf8');
  } catch (err) {
    if (!(err instanceof UnsealError)) throw err;
    if (err.reason === 'malformed') throw new NotifyError('secret_unreadable', 'a webhook secret is stored in an unknown form');
    throw new NotifyError('secret_unreadable', 'a webhook secret cannot be opened with this deployment’s evidence key (was the key changed?)', undefined, { cause: err.cause });
  }
}
