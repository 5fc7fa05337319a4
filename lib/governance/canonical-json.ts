/**
 * Canonical JSON for digests. The canonicalisation (a subset of RFC 8785, JCS, which it matches on
 * every value it accepts):
 *   - objects: members sorted by key, comparing keys as UTF-16 code-unit sequences; no duplicate keys;
 *   - arrays keep their order;
 *   - strings and numbers are written as ECMAScript `JSON.stringify` writes them (shortest round-trip
 *     numbers, `-0` as `0`, minimal string escapes);
 *   - no whitespace anywhere; `null`, `true`, `false` literal.
 * Refused (CanonicalJsonError naming the path): `undefined`, functions, symbols, bigints, NaN and
 * ±Infinity, and cycles — a digest must never silently drop or coerce a field.
 */
import { createHash } from 'node:crypto';
import { CanonicalJsonError } from './errors';

function write(value: unknown, path: string, seen: Set<object>): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'boolean':
      return value ? 'true' : 'false';
    case 'string':
      return JSON.stringify(value);
    case 'number':
      if (!Number.isFinite(value)) throw new CanonicalJsonError(path, `${value} has no JSON form`);
      return JSON.stringify(value);
    case 'object': {
      if (seen.has(value)) throw new CanonicalJsonError(path, 'cycle');
      seen.add(value);
      let out: string;
      if (Array.isArray(value)) {
        out = `[${value.map((v, i) => write(v, `${path}[${i}]`, seen)).join(',')}]`;
      } else {
        const keys = Object.keys(value).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
        const parts = keys.map((k) => `${JSON.stringify(k)}:${write((value as Record<string, unknown>)[k], `${path}.${k}`, seen)}`);
        out = `{${parts.join(',')}}`;
      }
      seen.delete(value);
      return out;
    }
    default:
      throw new CanonicalJsonError(path, `${typeof value} has no JSON form`);
  }
}

/** The canonical JSON text of a value (see the module comment for the exact rules). */
export function canonicalJson(value: unknown): string {
  return write(value, '$', new Set());
}

/** Lower-case hex SHA-256 of a string's UTF-8 bytes (or of raw bytes). */
export function sha256Hex(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/** SHA-256 of a value's canonical JSON: the digest every governance binding uses. */
export function canonicalDigest(value: unknown): string {
  return sha256Hex(canonicalJson(value));
}
