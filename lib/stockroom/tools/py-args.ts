/**
 * Python's conversions of loosely typed tool arguments. The tools are called with whatever the
 * model sent (the harness validates first, but the environment must not depend on that), so each
 * coercion follows what the reference's Python would do and turns its TypeError/ValueError into
 * a `bad_arguments` result.
 */
import type { JsonValue } from '../../harness';
import { pyRepr, pyStr, pyTypeName } from '../../harness';
import { BadArgumentsError, BusinessRuleError } from './errors';

/** A string argument the tool tokenizes (Python would fail on `.lower()` of anything else). */
export function requireString(name: string, value: JsonValue): string {
  if (typeof value !== 'string') throw new BadArgumentsError(`${name} must be a string, got ${pyTypeName(value)}`);
  return value;
}

/**
 * A dictionary key lookup: unhashable values (lists, dicts) fail like Python; other non-strings
 * simply match nothing and are reported with `notFound` (`unknown SKU 1015`).
 */
export function lookupKey<T>(map: ReadonlyMap<string, T>, value: JsonValue, notFound: string): T {
  if (value !== null && typeof value === 'object') throw new BadArgumentsError(`unhashable type: '${pyTypeName(value)}'`);
  const found = typeof value === 'string' ? map.get(value) : undefined;
  if (found === undefined) throw new BusinessRuleError(`${notFound} ${pyStr(value)}`);
  return found;
}

const INT_LITERAL = /^\s*[+-]?\d+(?:_\d+)*\s*$/;

/** Python `int(value)`: truncates floats, accepts integer strings, refuses the rest. */
export function pyInt(value: JsonValue): number {
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'number') {
    if (Number.isNaN(value)) throw new BadArgumentsError('cannot convert float NaN to integer');
    if (!Number.isFinite(value)) throw new BadArgumentsError('cannot convert float infinity to integer');
    return Math.trunc(value);
  }
  if (typeof value === 'string') {
    if (!INT_LITERAL.test(value)) throw new BadArgumentsError(`invalid literal for int() with base 10: ${pyRepr(value)}`);
    return Number(value.trim().replace(/_/g, ''));
  }
  throw new BadArgumentsError(
    `int() argument must be a string, a bytes-like object or a real number, not '${pyTypeName(value)}'`,
  );
}

/** A slice bound as Python accepts it (`None` = no bound; bools are 0/1; floats are refused). */
export function pySliceBound(name: string, value: JsonValue): number | null {
  if (value === null) return null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  throw new BadArgumentsError(`${name}: slice indices must be integers or None, got ${pyTypeName(value)}`);
}
