import 'server-only';
/**
 * Who may send traces to the OTLP receiver: a bearer token per tenant. Tokens are configured hashed
 * (STOCKROOM_OTLP_TOKENS=`tenant:sha256hex,…`; `npm run stockroom -- otlp-token --tenant T` makes
 * one), so the server never holds them in clear; a presented token is hashed and compared in
 * constant time. A malformed entry stops the request with the variable's name.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { ConfigError } from '../harness';

import { badIngestTokenMessage, OTLP_TOKENS_VAR, parseIngestTokenEntries, TENANT_PATTERN } from './ingest-token-format';

export { OTLP_TOKENS_VAR, TENANT_PATTERN };

export interface IngestToken {
  tenant: string;
  sha256: Buffer;
}

export const hashToken = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');

/** A new random token and the line that configures it. */
export function newIngestToken(tenant: string): { token: string; entry: string } {
  if (!TENANT_PATTERN.test(tenant)) throw new ConfigError('tenant', `--tenant must be letters, digits, '.', '_' or '-' (at most 64); got '${tenant}'`);
  const token = `sotlp_${randomBytes(24).toString('base64url')}`;
  return { token, entry: `${tenant}:${hashToken(token)}` };
}

/** The configured tokens (none when the variable is unset: the receiver then refuses everyone). */
export function ingestTokensFromEnv(raw = process.env[OTLP_TOKENS_VAR]): IngestToken[] {
  const parsed = parseIngestTokenEntries(raw);
  if (!parsed.ok) throw new ConfigError(OTLP_TOKENS_VAR, badIngestTokenMessage(parsed.bad));
  return parsed.entries.map(({ tenant, hash }) => ({ tenant, sha256: Buffer.from(hash, 'hex') }));
}

/** The tenant whose token `given` is, or null. Every configured hash is compared (no early exit). */
export function tenantForToken(given: string, tokens: readonly IngestToken[]): string | null {
  const digest = createHash('sha256').update(given, 'utf8').digest();
  let tenant: string | null = null;
  for (const t of tokens) if (timingSafeEqual(digest, t.sha256) && tenant === null) tenant = t.tenant;
  return tenant;
}

/** The OTLP receivers' caller for a bearer token (traces and logs alike): its tenant, or null for no known token. */
export function ingestCaller(token: string): { tenant: string; label: string } | null {
  const tenant = tenantForToken(token, ingestTokensFromEnv());
  return tenant ? { tenant, label: `otlp-token:${tenant}` } : null;
}
