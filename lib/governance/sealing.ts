/**
 * Sealing a value before it is stored: AES-256-GCM under a key derived (HKDF-SHA256) from a root key
 * kept outside the database (the evidence key) for one purpose, so a copy of the database alone opens
 * nothing and a value sealed for one purpose does not open as another. The stored form is
 * `v1.<iv>.<tag>.<ciphertext>`, base64url parts (webhook secrets and pseudonym keys alike).
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const keyFor = (rootKey: Buffer, purpose: string) => Buffer.from(hkdfSync('sha256', rootKey, Buffer.alloc(0), purpose, 32));

export function sealFor(purpose: string, plain: Buffer, rootKey: Buffer): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyFor(rootKey, purpose), iv);
  const data = Buffer.concat([cipher.update(plain), cipher.final()]);
  return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), data.toString('base64url')].join('.');
}

/** Why a sealed value did not open: not in the stored form, or not with this key (and purpose). */
export class UnsealError extends Error {
  constructor(
    readonly reason: 'malformed' | 'unopenable',
    options?: ErrorOptions,
  ) {
    super(reason === 'malformed' ? 'not a sealed value' : 'cannot be opened with this key', options);
  }
}

/** The plaintext sealed by `sealFor(purpose, …, rootKey)`; throws UnsealError. */
export function unsealFor(purpose: string, sealed: string, rootKey: Buffer): Buffer {
  const [v, iv, tag, data] = sealed.split('.');
  if (v !== 'v1' || !iv || !tag || data === undefined) throw new UnsealError('malformed');
  try {
    const decipher = createDecipheriv('aes-256-gcm', keyFor(rootKey, purpose), Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]);
  } catch (err) {
    throw new UnsealError('unopenable', { cause: err });
  }
}
