/**
 * Python's numeric semantics that the metrics depend on: `math.fsum` (exact summation),
 * `round(x, n)` (correctly rounded on the exact binary value, ties to even), `statistics.fmean`
 * and `float(x)` conversion. A naive `Math.round(x * 1e4) / 1e4` disagrees with Python on values
 * such as 0.00005 or 1.00005, so the rounding works on the exact value with BigInt arithmetic.
 */
import type { JsonValue } from '../harness/browser';

/** One 8-byte view reused by decompose (a new buffer per call was garbage at every rounding). */
const FLOAT_VIEW = new DataView(new ArrayBuffer(8));

/** `x` finite and non-zero as `mantissa * 2 ** exponent` with an integer mantissa. */
function decompose(x: number): { mantissa: bigint; exponent: number } {
  const view = FLOAT_VIEW;
  view.setFloat64(0, Math.abs(x));
  const hi = view.getUint32(0);
  const lo = view.getUint32(4);
  const biased = (hi >>> 20) & 0x7ff;
  let mantissa = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  if (biased === 0) return { mantissa, exponent: -1074 }; // subnormal
  mantissa |= 1n << 52n;
  return { mantissa, exponent: biased - 1075 };
}

/**
 * Python `round(x, ndigits)` for a float: the exact binary value is rounded half-to-even at
 * `ndigits` decimals, then converted back to the nearest double (JavaScript's decimal parsing is
 * correctly rounded, like Python's).
 */
export function roundTo(x: number, ndigits: number): number {
  if (!Number.isInteger(ndigits) || ndigits < 0) throw new RangeError(`ndigits must be a non-negative integer, got ${ndigits}`);
  if (!Number.isFinite(x) || x === 0) return x;
  const { mantissa, exponent } = decompose(x);
  if (exponent >= 0) return x; // an integer already
  const scaled = mantissa * 10n ** BigInt(ndigits);
  const denominator = 1n << BigInt(-exponent);
  let quotient = scaled / denominator;
  const twice = (scaled % denominator) * 2n;
  if (twice > denominator || (twice === denominator && quotient % 2n === 1n)) quotient += 1n;
  const magnitude = Number(`${quotient}e-${ndigits}`);
  return x < 0 ? -magnitude : magnitude;
}

/** Values round4 remembers before it starts again (scores and shares repeat across runs and epochs). */
const ROUND4_ENTRIES = 4096;
const rounded4 = new Map<number, number>();

/** Python `round(x, 4)`: every aggregate mean is reported at this precision. Remembered: roundTo's exact arithmetic is BigInt. */
export function round4(x: number): number {
  // Zero (a Map key cannot tell -0 from 0) and non-finite values are their own rounding.
  if (x === 0 || !Number.isFinite(x)) return x;
  let r = rounded4.get(x);
  if (r === undefined) {
    r = roundTo(x, 4);
    if (rounded4.size >= ROUND4_ENTRIES) rounded4.clear();
    rounded4.set(x, r);
  }
  return r;
}

/**
 * Python `math.fsum`: the exactly rounded sum of the inputs (Shewchuk's partials, with CPython's
 * final half-even correction). Non-finite inputs fall back to ordinary addition.
 */
export function fsum(values: Iterable<number>): number {
  const partials: number[] = [];
  let special = 0;
  for (let x of values) {
    if (!Number.isFinite(x)) {
      special += x;
      continue;
    }
    let i = 0;
    for (let j = 0; j < partials.length; j++) {
      let y = partials[j] as number;
      if (Math.abs(x) < Math.abs(y)) [x, y] = [y, x];
      const hi = x + y;
      const lo = y - (hi - x);
      if (lo !== 0) partials[i++] = lo;
      x = hi;
    }
    partials.length = i;
    partials.push(x);
  }
  if (special !== 0 || Number.isNaN(special)) return special;
  let n = partials.length;
  if (n === 0) return 0;
  let hi = partials[--n] as number;
  let lo = 0;
  while (n > 0) {
    const x = hi;
    const y = partials[--n] as number;
    hi = x + y;
    lo = y - (hi - x);
    if (lo !== 0) break;
  }
  // Round half-even when the remaining partials push the tail past a tie.
  const next = partials[n - 1];
  if (n > 0 && next !== undefined && ((lo < 0 && next < 0) || (lo > 0 && next > 0))) {
    const y = lo * 2;
    const x = hi + y;
    if (y === x - hi) hi = x;
  }
  return hi;
}

/** The reference metrics' `mean`: `round(statistics.fmean(values), 4)`, or 0.0 for no values. */
export function mean4(values: readonly number[]): number {
  if (values.length === 0) return 0;
  return round4(fsum(values) / values.length);
}

// Python's float() grammar: digits may be grouped by single underscores; `inf`, `infinity` and
// `nan` in any case; surrounding whitespace is ignored.
const DIGITS = '\\d(?:_?\\d)*';
const PY_FLOAT = new RegExp(
  `^[+-]?(?:(?:${DIGITS}(?:\\.(?:${DIGITS})?)?|\\.${DIGITS})(?:[eE][+-]?${DIGITS})?|inf(?:inity)?|nan)$`,
  'i',
);
const PY_SPACE_EDGES = /^[\t-\r\u001c-\u0020\u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+|[\t-\r\u001c-\u0020\u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+$/g;

/**
 * Python `float(value)` for a JSON value, or null where Python raises (None, lists, dicts, strings
 * that are not numbers — including `""`, which JavaScript's `Number` would turn into 0).
 * Only ASCII digits are accepted in strings (Python also accepts other Unicode decimal digits).
 */
export function pyFloat(value: JsonValue | undefined): number | null {
  if (typeof value === 'number') return value;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value !== 'string') return null;
  const text = value.replace(PY_SPACE_EDGES, '');
  if (!PY_FLOAT.test(text)) return null;
  const lower = text.toLowerCase();
  const negative = lower.startsWith('-');
  const body = lower.replace(/^[+-]/, '');
  if (body === 'nan') return NaN;
  if (body.startsWith('inf')) return negative ? -Infinity : Infinity;
  return Number(text.replace(/_/g, ''));
}
