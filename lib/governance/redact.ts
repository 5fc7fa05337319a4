/**
 * Evidence never holds raw secrets: values under secret-like keys are masked and their paths listed,
 * so a reader knows something was removed without seeing it.
 */
import type { JsonValue } from '../harness';

const SECRET_KEY = /(pass(word|phrase)?|secret|token|api[-_]?key|authori[sz]ation|cookie|credential|private[-_]?key)/i;
export const REDACTED = '[redacted]';

/** A copy of `value` with secret-keyed members masked, and the JSON paths that were masked. */
export function redact(value: JsonValue, path = '$'): { value: JsonValue; redactions: string[] } {
  if (Array.isArray(value)) {
    const redactions: string[] = [];
    const out = value.map((v, i) => {
      const r = redact(v, `${path}[${i}]`);
      redactions.push(...r.redactions);
      return r.value;
    });
    return { value: out, redactions };
  }
  if (value !== null && typeof value === 'object') {
    const redactions: string[] = [];
    const out: Record<string, JsonValue> = {};
    for (const [k, v] of Object.entries(value)) {
      if (SECRET_KEY.test(k)) {
        out[k] = REDACTED;
        redactions.push(`${path}.${k}`);
      } else {
        const r = redact(v, `${path}.${k}`);
        out[k] = r.value;
        redactions.push(...r.redactions);
      }
    }
    return { value: out, redactions };
  }
  return { value, redactions: [] };
}
