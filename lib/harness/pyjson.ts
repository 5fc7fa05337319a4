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
  const parts: string[] = [];

  const encode = (v: unknown, isFloat: boolean): void => {
    if (v === null || v === undefined) {
      parts.push('null');
    } else if (typeof v === 'string') {
      parts.push(pyJsonString(v, ensureAscii));
    } else if (typeof v === 'number') {
      parts.push(pyNumber(v, isFloat));
    } else if (typeof v === 'boolean') {
      parts.push(v ? 'true' : 'false');
    } else if (Array.isArray(v)) {
      if (v.length === 0) {
        parts.push('[]');
        return;
      }
      parts.push('[');
      for (let i = 0; i < v.length; i++) {
        if (i > 0) parts.push(', ');
        encode(v[i], isFloat);
      }
      parts.push(']');
    } else if (typeof v === 'object') {
      const obj = v as Record<string, unknown>;
      let keys = Object.keys(obj).filter((k) => obj[k] !== undefined);
      if (keys.length === 0) {
        parts.push('{}');
        return;
      }
      if (sortKeys) keys = [...keys].sort(compareCodePoints);
      parts.push('{');
      for (let i = 0; i < keys.length; i++) {
        const key = keys[i] as string;
        if (i > 0) parts.push(', ');
        parts.push(pyJsonString(key, ensureAscii), ': ');
        encode(obj[key], floatKeys.has(key));
      }
      parts.push('}');
    } else {
      parts.push(pyJsonString(String(v), ensureAscii));
    }
  };

  encode(value, false);
  return parts.join('');
}

/** Code-point order (Python's string order); equal to UTF-16 order outside the astral planes. */
export function compareCodePoints(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
