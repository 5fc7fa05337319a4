/**
 * Python-JSON: the exact text Python's `json.dumps` writes (SPEC.md §13). Token counts are
 * chars/4 of this text, so every separator, escape and float spelling is normative.
 */

/** Keys whose numeric values are floats in the source data (Python prints `28.0`, not `28`). */
export type FloatKeys = ReadonlySet<string>;

export interface PyJsonOptions {
  /** Escape every character outside U+0020..U+007E as \uXXXX (Python's default). */
  ensureAscii?: boolean;
  /** Emit object keys in code-point order at every depth. */
  sortKeys?: boolean;
  /** Numbers under these keys print as floats even when integral. */
  floatKeys?: FloatKeys;
}

const NO_FLOAT_KEYS: FloatKeys = new Set<string>();
const NON_ASCII = /[\u007f-\uffff]/g;
const NEEDS_ESCAPE_ASCII = /[\u0000-\u001f"\\\u007f-\uffff]/;
const NEEDS_ESCAPE = /[\u0000-\u001f"\\]/;

function escapeNonAscii(ch: string): string {
  return '\\u' + ch.charCodeAt(0).toString(16).padStart(4, '0');
}

/** Encodes a string exactly as Python's json encoder does. */
export function pyJsonString(s: string, ensureAscii = true): string {
  if (!(ensureAscii ? NEEDS_ESCAPE_ASCII : NEEDS_ESCAPE).test(s)) return `"${s}"`;
  // JSON.stringify escapes the same always-escaped set, with the same short forms and lower-case hex.
  const base = JSON.stringify(s);
  return ensureAscii ? base.replace(NON_ASCII, escapeNonAscii) : base;
}

/** Python `repr(float)`: shortest round-trip digits, `.0` on integral values, exponent outside [1e-4, 1e16). */
export function pyFloatRepr(v: number): string {
  // Inside [1e-4, 1e16) both languages print the shortest round-trip digits without an exponent
  // (JavaScript keeps the plain form down to 1e-7 and up to 1e21); Python adds `.0` to an integral value.
  const abs = Math.abs(v);
  if (abs >= 1e-4 && abs < 1e16) {
    const text = String(v);
    return Number.isInteger(v) ? text + '.0' : text;
  }
  return exponentRepr(v);
}

/** pyFloatRepr outside [1e-4, 1e16) (and NaN, infinities and zero), from the shortest digits of toExponential. */
function exponentRepr(v: number): string {
  if (Number.isNaN(v)) return 'NaN';
  if (v === Infinity) return 'Infinity';
  if (v === -Infinity) return '-Infinity';
  if (v === 0) return Object.is(v, -0) ? '-0.0' : '0.0';
  const [mantissa, expText] = v.toExponential().split('e') as [string, string];
  const exp = Number(expText);
  const negative = mantissa.startsWith('-');
  const digits = mantissa.replace('-', '').replace('.', '');
  const sign = negative ? '-' : '';
  if (exp < -4 || exp >= 16) {
    const frac = digits.slice(1);
    const expAbs = String(Math.abs(exp)).padStart(2, '0');
    return `${sign}${digits[0]}${frac ? '.' + frac : ''}e${exp < 0 ? '-' : '+'}${expAbs}`;
  }
  if (exp < 0) return `${sign}0.${'0'.repeat(-exp - 1)}${digits}`;
  const intPart = digits.slice(0, exp + 1).padEnd(exp + 1, '0');
  const fracPart = digits.slice(exp + 1);
  return `${sign}${intPart}.${fracPart || '0'}`;
}

/** Python `repr(int)` for a JavaScript integer (no exponent, however large). */
function pyIntRepr(v: number): string {
  return Math.abs(v) < 1e21 ? String(v) : BigInt(v).toString();
}

/** A number as Python would print it, given whether it is a float in the source. */
export function pyNumber(v: number, isFloat: boolean): string {
  if (!isFloat && Number.isInteger(v)) return pyIntRepr(v);
  return pyFloatRepr(v);
}

/**
 * Serialises a JSON value as Python's `json.dumps(value, ensure_ascii=…, sort_keys=…)` with the
 * default separators `", "` and `": "`.
 */
export function pyJson(value: unknown, options: PyJsonOptions = {}): string {
  const ensureAscii = options.ensureAscii ?? true;
  const sortKeys = options.sortKeys ?? false;
  const floatKeys = options.floatKeys ?? NO_FLOAT_KEYS;

  // Built by concatenation (V8 joins the pieces lazily): faster than an array of parts joined, and the
  // harness sizes every message and tool result this way.
  const encode = (v: unknown, isFloat: boolean): string => {
    if (v === null || v === undefined) return 'null';
    if (typeof v === 'string') return pyJsonString(v, ensureAscii);
    if (typeof v === 'number') return pyNumber(v, isFloat);
    if (typeof v === 'boolean') return v ? 'true' : 'false';
    if (Array.isArray(v)) {
      if (v.length === 0) return '[]';
      let out = '[' + encode(v[0], isFloat);
      for (let i = 1; i < v.length; i++) out += ', ' + encode(v[i], isFloat);
      return out + ']';
    }
    if (typeof v === 'object') {
      const obj = v as Record<string, unknown>;
      let keys = Object.keys(obj);
      if (sortKeys) keys = keys.sort(compareCodePoints);
      let out = '';
      for (const key of keys) {
        const item = obj[key];
        if (item === undefined) continue;
        out += (out === '' ? '{' : ', ') + pyJsonString(key, ensureAscii) + ': ' + encode(item, floatKeys.has(key));
      }
      return out === '' ? '{}' : out + '}';
    }
    return pyJsonString(String(v), ensureAscii);
  };

  return encode(value, false);
}

/** Code-point order (Python's string order); equal to UTF-16 order outside the astral planes. */
export function compareCodePoints(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
