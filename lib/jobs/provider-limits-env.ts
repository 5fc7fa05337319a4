/**
 * STOCKROOM_PROVIDER_LIMITS, parsed alone: lib/startup reads it at every start of the web server, a
 * worker and the CLI, so it imports nothing beyond itself (provider-limits.ts reaches the database
 * entry, whose modules are server-only: a CLI process started without the react-server condition, as a
 * tool-server listing's `node --import tsx cli/stockroom.ts mcp-server` is, could not start).
 */

export interface ProviderLimit {
  concurrent: number | null;
  requestsPerMinute: number | null;
  tokensPerMinute: number | null;
  /** The sliding window the per-minute limits count over (60 s; tests shorten it). */
  windowMs?: number;
}

/** Parses STOCKROOM_PROVIDER_LIMITS; a bad entry is refused naming the variable and the entry. */
export function parseProviderLimits(raw: string | undefined): Map<string, ProviderLimit> {
  const limits = new Map<string, ProviderLimit>();
  if (!raw || raw.trim() === '') return limits;
  for (const entry of raw.split(';').map((e) => e.trim()).filter(Boolean)) {
    const [provider, spec] = entry.split('=');
    if (!provider || !spec) throw new RangeError(`STOCKROOM_PROVIDER_LIMITS: '${entry}' is not provider=concurrent:N,rpm:N,tpm:N`);
    const limit: ProviderLimit = { concurrent: null, requestsPerMinute: null, tokensPerMinute: null };
    for (const part of spec.split(',')) {
      const [k, v] = part.split(':').map((s) => s.trim());
      const n = Number(v);
      if (!Number.isInteger(n) || n < 1) throw new RangeError(`STOCKROOM_PROVIDER_LIMITS: '${part}' in '${entry}' needs a positive integer`);
      if (k === 'concurrent') limit.concurrent = n;
      else if (k === 'rpm') limit.requestsPerMinute = n;
      else if (k === 'tpm') limit.tokensPerMinute = n;
      else throw new RangeError(`STOCKROOM_PROVIDER_LIMITS: unknown limit '${k}' in '${entry}' (concurrent, rpm, tpm)`);
    }
    limits.set(provider.trim(), limit);
  }
  return limits;
}
