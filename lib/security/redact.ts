/**
 * Secrets never leave in a trace: values under secret-looking keys, and strings shaped like
 * credentials, are replaced before message content is attached to a span.
 */
import type { JsonValue } from '../harness';

// Whole key or its last `_`/`-` segment: `api_key`, `x-api-key`, `access_token` (not `max_tokens`).
const SECRET_KEY = /(^|[_-])(api[_-]?key|apikey|secret|client[_-]?secret|password|passwd|token|authorization|credentials?|cookie)$/i;
const SECRET_VALUE = /\b(sk-[A-Za-z0-9_-]{16,}|AKIA[0-9A-Z]{16}|Bearer\s+[A-Za-z0-9._~+/-]{16,}=*)/g;
export const REDACTED = '[REDACTED]';

/** A copy of `value` with secrets replaced by `[REDACTED]`. */
export function redactSecrets(value: JsonValue): JsonValue {
  if (typeof value === 'string') return value.replace(SECRET_VALUE, REDACTED);
  if (Array.isArray(value)) return value.map(redactSecrets);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, JsonValue> = {};
    for (const [k, v] of Object.entries(value)) out[k] = SECRET_KEY.test(k) && v !== null && typeof v !== 'object' ? REDACTED : redactSecrets(v);
    return out;
  }
  return value;
}
