/**
 * JSON-schema validation of every tool call before the tool runs (draft 2020-12, ajv). Messages
 * follow Python jsonschema 4.26, which the reference harness used: they are part of the prompt of
 * later turns, so their wording is counted in tokens (SPEC.md §11.6).
 */
import Ajv2020 from 'ajv/dist/2020.js';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { isJsonObject, type JsonObject, type JsonValue } from '../json';
import { pyRepr, pyTypeName } from '../text';
import { MAX_VALIDATION_ERRORS_REPORTED } from '../tunables';

const ajv = new Ajv2020({ allErrors: true, strict: false, validateFormats: false });
// Keyed by the schema's text: every environment builds its own spec objects, but the schemas repeat.
const compiled = new Map<string, ValidateFunction>();
const keyOf = new WeakMap<JsonObject, string>();

function compile(schema: JsonObject): ValidateFunction {
  let key = keyOf.get(schema);
  if (key === undefined) {
    key = JSON.stringify(schema);
    keyOf.set(schema, key);
  }
  let fn = compiled.get(key);
  if (!fn) {
    // Third-party MCP servers declare their dialect (server-everything: draft-07), which this ajv
    // instance has no meta-schema for and would refuse to compile; the object keywords tool inputs
    // use mean the same in 2020-12, so the declaration is dropped rather than failing the run.
    const { $schema: _dialect, ...rest } = schema;
    fn = ajv.compile(rest);
    compiled.set(key, fn);
  }
  return fn;
}

interface Issue {
  path: string[];
  /** Position of the failing keyword in its schema object, for a stable, schema-ordered sort. */
  order: number;
  message: string;
}

function pointerToPath(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((p) => p.replaceAll('~1', '/').replaceAll('~0', '~'));
}

function valueAt(root: JsonValue, path: readonly string[]): JsonValue {
  let v: JsonValue = root;
  for (const p of path) v = Array.isArray(v) ? (v[Number(p)] as JsonValue) : isJsonObject(v) ? (v[p] as JsonValue) : null;
  return v;
}

function schemaAt(root: JsonObject, schemaPath: string): JsonObject {
  // schemaPath looks like "#/properties/quantity/type": drop "#" and the keyword itself.
  const parts = schemaPath.split('/').slice(1, -1);
  let s: JsonValue = root;
  for (const p of parts) s = isJsonObject(s) ? (s[p] as JsonValue) : null;
  return isJsonObject(s) ? s : {};
}

function describeError(e: ErrorObject, instance: JsonValue): string {
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'type':
      return `${pyRepr(instance)} is not of type ${pyRepr(p.type)}`;
    case 'pattern':
      return `${pyRepr(instance)} does not match ${pyRepr(p.pattern)}`;
    case 'minLength':
      return p.limit === 1 ? `${pyRepr(instance)} should be non-empty` : `${pyRepr(instance)} is too short`;
    case 'maxLength':
      return `${pyRepr(instance)} is too long`;
    case 'minimum':
      return `${pyRepr(instance)} is less than the minimum of ${pyRepr(p.limit)}`;
    case 'maximum':
      return `${pyRepr(instance)} is greater than the maximum of ${pyRepr(p.limit)}`;
    case 'enum':
      return `${pyRepr(instance)} is not one of ${pyRepr(p.allowedValues)}`;
    case 'required':
      return `${pyRepr(p.missingProperty)} is a required property`;
    default:
      return `${pyRepr(instance)} is not valid under the ${e.keyword} keyword`;
  }
}

/** Validates arguments against a tool's input schema; returns null when valid, else the message. */
export function validateArguments(schema: JsonObject, args: JsonValue): string | null {
  if (!isJsonObject(args)) return `arguments must be a JSON object, got ${pyTypeName(args)}`;
  const validate = compile(schema);
  if (validate(args)) return null;
  const issues: Issue[] = [];
  const extras = new Map<string, { path: string[]; order: number; names: string[] }>();
  for (const e of validate.errors ?? []) {
    const path = pointerToPath(e.instancePath);
    const parentSchema = schemaAt(schema, e.schemaPath);
    const order = Object.keys(parentSchema).indexOf(e.keyword);
    if (e.keyword === 'additionalProperties') {
      const key = e.instancePath;
      const entry = extras.get(key) ?? { path, order, names: [] };
      entry.names.push(String((e.params as { additionalProperty: string }).additionalProperty));
      extras.set(key, entry);
      continue;
    }
    issues.push({ path, order, message: describeError(e, valueAt(args, path)) });
  }
  for (const { path, order, names } of extras.values()) {
    const sorted = [...names].sort();
    const verb = sorted.length === 1 ? 'was' : 'were';
    issues.push({
      path,
      order,
      message: `Additional properties are not allowed (${sorted.map((n) => pyRepr(n)).join(', ')} ${verb} unexpected)`,
    });
  }
  issues.sort((a, b) => comparePaths(a.path, b.path) || a.order - b.order);
  return issues
    .slice(0, MAX_VALIDATION_ERRORS_REPORTED)
    .map((i) => `${i.path.length ? i.path.join('.') : '<root>'}: ${i.message}`)
    .join('; ');
}

function comparePaths(a: readonly string[], b: readonly string[]): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a[i] as string;
    const y = b[i] as string;
    if (x !== y) return x < y ? -1 : 1;
  }
  return a.length - b.length;
}
