/**
 * An endpoint's signing secret: checked at save (at least MIN_SECRET_BYTES bytes), then kept only
 * sealed (AES-256-GCM under a key derived from the evidence key, which lives outside the database),
 * so a copy of the database does not let anyone forge this deployment's webhooks.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
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

const sealKey = (rootKey: Buffer) => Buffer.from(hkdfSync('sha256', rootKey, Buffer.alloc(0), 'stockroom webhook signing secrets v1', 32));

/** `v1.<iv>.<tag>.<ciphertext>`, base64url parts. */
export function sealSecret(secret: string, rootKey: Buffer): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', sealKey(rootKey), iv);
  const data = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), data.toString('base64url')].join('.');
}

export function unsealSecret(sealed: string, rootKey: Buffer): string {
  const [v, iv, tag, data] = sealed.split('.');
  if (v !== 'v1' || !iv || !tag || data === undefined) throw new NotifyError('secret_unreadable', 'a webhook secret is stored in an unknown form');
  try {
    const decipher = createDecipheriv('aes-256-gcm', sealKey(rootKey), Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
  } catch (err) {
    throw new NotifyError('secret_unreadable', 'a webhook secret cannot be opened with this deployment’s evidence key (was the key changed?)', undefined, { cause: err });
  }
}
