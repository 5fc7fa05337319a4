/**
 * Sealing a tenant's OAuth credentials before they are stored: AES-256-GCM under a key kept outside
 * the database (derived with HKDF from a secret the caller hands in), with the tenant and server
 * bound as associated data, so a sealed value copied to another tenant's row does not open.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const IV_BYTES = 12;
const TAG_BYTES = 16;

/** A 32-byte key for sealing OAuth credentials, derived from `secret` for this one purpose. */
export function oauthSealingKey(secret: Uint8Array): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, 'stockroom', 'mcp-oauth-credentials v1', 32));
}

const aad = (tenant: string, serverId: string) => Buffer.from(`${tenant}\n${serverId}`, 'utf8');

/** `plaintext` sealed for (tenant, server): base64 of iv | tag | ciphertext. */
export function seal(key: Buffer, tenant: string, serverId: string, plaintext: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(aad(tenant, serverId));
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
}

/** The plaintext, or null when the value was not sealed with this key for this tenant and server. */
export function unseal(key: Buffer, tenant: string, serverId: string, sealed: string): string | null {
  try {
    const raw = Buffer.from(sealed, 'base64');
    const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES));
    decipher.setAAD(aad(tenant, serverId));
    decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}
