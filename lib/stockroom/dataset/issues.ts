/**
 * Turns a zod issue into a DatasetError naming the file, the field path (`[3].unit_price_usd`) and,
 * for enums, the allowed values, so a broken dataset can be fixed without reading the loader.
 */
import type { z } from 'zod';
import { DatasetError } from '../../harness';
import { pyRepr } from '../../harness';

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** `[3].unit_price_usd`, `tools.search_products.default`, `["SUP-01"].name`. */
export function formatFieldPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else {
      const key = String(part);
      out += IDENTIFIER.test(key) ? (out ? '.' : '') + key : `[${JSON.stringify(key)}]`;
    }
  }
  return out;
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let v: unknown = root;
  for (const part of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[part];
  }
  return v;
}

function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? text.slice(0, 57) + '...' : text;
}

function messageFor(issue: z.core.$ZodIssue, received: unknown): string {
  switch (issue.code) {
    case 'invalid_value':
      return `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')} (got ${describe(received)})`;
    case 'invalid_type':
      if (received === undefined) return 'is required';
      return `must be ${issue.expected === 'int' ? 'an integer' : `of type ${issue.expected}`} (got ${describe(received)})`;
    case 'unrecognized_keys':
      return issue.keys.length === 1 ? 'is not an allowed key' : `unknown keys ${pyRepr(issue.keys)}`;
    case 'invalid_format':
      return `${issue.message.replace(/^Invalid string: /, '')} (got ${describe(received)})`;
    case 'too_small':
    case 'too_big':
      return `${issue.message} (got ${describe(received)})`;
    case 'invalid_union':
      return `does not match any allowed shape (got ${describe(received)})`;
    default:
      return issue.message;
  }
}

/** Validates `value` and throws a DatasetError for the first problem. */
export function assertSchema(schema: z.ZodType, value: unknown, file: string, fieldPrefix: PropertyKey[] = []): void {
  const result = schema.safeParse(value);
  if (result.success) return;
  const issue = result.error.issues[0] as z.core.$ZodIssue;
  const received = valueAt(value, issue.path);
  // An unknown key is reported at the key itself, not at the object holding it.
  const path = issue.code === 'unrecognized_keys' && issue.keys.length === 1 ? [...issue.path, issue.keys[0] as string] : issue.path;
  const field = formatFieldPath([...fieldPrefix, ...path]) || null;
  throw new DatasetError(file, messageFor(issue, received), { field });
}
