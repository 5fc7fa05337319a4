/**
 * Standard Webhooks signing (standardwebhooks.com): `webhook-signature` is `v1,` + base64
 * HMAC-SHA256 over `<webhook-id>.<webhook-timestamp>.<body>`, keyed with the secret's bytes. A
 * secret written `whsec_<base64>` is those base64 bytes; any other string is its UTF-8 bytes.
 */
import { createHmac } from 'node:crypto';

/** The key bytes of a secret as an endpoint's owner wrote it. */
export function secretBytes(secret: string): Buffer {
  return secret.startsWith('whsec_') ? Buffer.from(secret.slice('whsec_'.length), 'base64') : Buffer.from(secret, 'utf8');
}

/** The three headers a signed delivery carries. `timestamp` is in seconds since the epoch. */
export function signedHeaders(secret: string, id: string, timestamp: number, body: string): Record<'webhook-id' | 'webhook-timestamp' | 'webhook-signature', string> {
  const mac = createHmac('sha256', secretBytes(secret)).update(`${id}.${timestamp}.${body}`).digest('base64');
  return { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': `v1,${mac}` };
}
