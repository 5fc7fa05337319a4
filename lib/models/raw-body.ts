/**
 * The provider's response body as recorded: the JSON it sent, with secret-looking keys and values
 * redacted (a provider echoing a key, an auth header or a signed URL never reaches storage).
 */
import type { JsonValue } from '../harness';
import { safeJsonParse } from '../harness';
import { redactSecrets } from '../security';

/** A parsed body (the SDK's plain object) or body text, as redacted JSON; text that is not JSON is kept as a string. */
export function rawBody(body: unknown): JsonValue {
  if (typeof body === 'string') {
    const parsed = safeJsonParse(body);
    return redactSecrets(parsed.ok ? parsed.value : body);
  }
  // A JSON round trip drops the SDK's non-enumerable helpers (request ids, response handles).
  const text = JSON.stringify(body ?? null);
  const parsed = safeJsonParse(text);
  return redactSecrets(parsed.ok ? parsed.value : null);
}
