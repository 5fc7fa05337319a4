/**
 * The form of STOCKROOM_OTLP_TOKENS (`tenant:sha256hex,…`), apart from the receiver's token checks
 * (./ingest-tokens.ts, server-only, node:crypto): lib/startup checks the variable with this at every
 * start of the CLI, which runs without the react-server condition in a stdio child and must not load
 * a `server-only` module.
 */
export const OTLP_TOKENS_VAR = 'STOCKROOM_OTLP_TOKENS';
/** What a tenant name may look like (the same rule for tokens and `import --tenant`). */
export const TENANT_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

/** The entries of the variable as tenant and hex hash, or the first entry that is not `tenant:sha256hex`. */
export function parseIngestTokenEntries(raw: string | undefined): { ok: true; entries: { tenant: string; hash: string }[] } | { ok: false; bad: string } {
  const entries: { tenant: string; hash: string }[] = [];
  for (const entry of (raw ?? '').split(',').map((e) => e.trim()).filter(Boolean)) {
    const [tenant, hash, ...rest] = entry.split(':');
    if (rest.length > 0 || !tenant || !TENANT_PATTERN.test(tenant) || !hash || !/^[0-9a-f]{64}$/i.test(hash)) return { ok: false, bad: entry };
    entries.push({ tenant, hash });
  }
  return { ok: true, entries };
}

/** The refusal of a malformed entry, naming the variable (only the entry's start: it may hold a secret typed by mistake). */
export const badIngestTokenMessage = (entry: string) => `${OTLP_TOKENS_VAR} entries must be tenant:sha256-hex-of-token; '${entry.slice(0, 24)}…' is not`;
