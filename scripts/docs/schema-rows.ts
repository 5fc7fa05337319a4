/**
 * A zod schema as reference rows: every key path with what it accepts, its default and its description,
 * read from the schema's JSON Schema (zod's own `z.toJSONSchema`), so the configuration reference is
 * what the parser accepts and cannot drift from it.
 */
import { z } from 'zod';

/** The JSON Schema subset zod emits for our schemas. */
export interface JsonSchemaNode {
  type?: string | string[];
  const?: unknown;
  enum?: unknown[];
  default?: unknown;
  description?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  items?: JsonSchemaNode;
  properties?: Record<string, JsonSchemaNode>;
  required?: string[];
  additionalProperties?: JsonSchemaNode | boolean;
  propertyNames?: JsonSchemaNode;
  anyOf?: JsonSchemaNode[];
  oneOf?: JsonSchemaNode[];
}

export interface SchemaRow {
  key: string;
  accepts: string;
  required: boolean;
  /** The default as JSON text, or null when the key has none. */
  defaultValue: string | null;
  /** What the key does (the schema's description) and, for a key of one form of a union, which form. */
  note: string;
}

/** The JSON Schema of what a schema accepts as input (refinements are not representable and are left out). */
export function jsonSchemaOf(schema: z.ZodType): JsonSchemaNode {
  return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchemaNode;
}

const code = (v: unknown) => `\`${JSON.stringify(v)}\``;
const UNBOUNDED = Number.MAX_SAFE_INTEGER;

/** What a node accepts, in words. */
export function acceptsText(n: JsonSchemaNode): string {
  const variants = n.anyOf ?? n.oneOf;
  if (variants) {
    const parts = variants.filter((v) => v.type !== 'null').map(acceptsText);
    return [...new Set(parts)].join(', or ') + (variants.some((v) => v.type === 'null') ? ', or null' : '');
  }
  if (n.const !== undefined) return code(n.const);
  if (n.enum) return `one of ${n.enum.map(code).join(', ')}`;
  const type = Array.isArray(n.type) ? n.type.join(' or ') : n.type;
  switch (type) {
    case 'integer':
    case 'number': {
      const what = type === 'integer' ? 'an integer' : 'a number';
      const low = n.exclusiveMinimum !== undefined ? `> ${n.exclusiveMinimum}` : n.minimum !== undefined ? `≥ ${n.minimum}` : null;
      if (n.minimum !== undefined && n.maximum !== undefined && n.maximum < UNBOUNDED) return `${what} from ${n.minimum} to ${n.maximum}`;
      const high = n.maximum !== undefined && n.maximum < UNBOUNDED ? `≤ ${n.maximum}` : null;
      return [what, low, high].filter(Boolean).join(' ');
    }
    case 'string':
      if (n.format === 'uri') return 'a URL';
      if (n.pattern) return `text matching \`${n.pattern}\``;
      return n.minLength ? 'text (not empty)' : 'text';
    case 'boolean':
      return '`true` or `false`';
    case 'array':
      return n.items ? `a list of ${plural(acceptsText(n.items))}` : 'a list';
    case 'object':
      if (n.properties) return 'an object (keys below)';
      if (n.additionalProperties && typeof n.additionalProperties === 'object') return `an object: ${n.propertyNames ? acceptsText(n.propertyNames) : 'any key'} → its settings (below)`;
      return 'an object';
    default:
      return type ?? 'anything';
  }
}

/** "one of `a`, `b`" → "`a`, `b`"; "an integer" → "integers"; else as is. */
function plural(text: string): string {
  if (text.startsWith('one of ')) return text.slice('one of '.length);
  if (text === 'text (not empty)') return 'non-empty texts';
  if (text === 'text') return 'texts';
  if (text === 'an object (keys below)') return 'objects (keys below)';
  return text;
}

/** The discriminating key of a union of objects (a key every variant fixes with `const`), if there is one. */
function discriminator(variants: JsonSchemaNode[]): string | null {
  const first = variants[0]?.properties ?? {};
  return Object.keys(first).find((k) => variants.every((v) => v.properties?.[k]?.const !== undefined)) ?? null;
}

/**
 * Every key path under `node`, parents first. `recordKeys` names the placeholder of a record's keys by its
 * path (`tenants` → `<tenant>`); others are `<key>`.
 */
export function schemaRows(node: JsonSchemaNode, recordKeys: Record<string, string> = {}, prefix = '', note = ''): SchemaRow[] {
  const rows: SchemaRow[] = [];
  const objectVariants = (n: JsonSchemaNode) => (n.anyOf ?? n.oneOf ?? []).filter((v) => v.type === 'object' && v.properties);
  const visitChildren = (n: JsonSchemaNode, path: string): void => {
    if (n.type === 'array' && n.items) return visitChildren(n.items, `${path}[]`);
    if (n.properties) rows.push(...schemaRows(n, recordKeys, path, ''));
    else if (n.additionalProperties && typeof n.additionalProperties === 'object') {
      rows.push(...schemaRows(n.additionalProperties, recordKeys, `${path}.${recordKeys[path] ?? '<key>'}`, ''));
    }
    const variants = objectVariants(n);
    if (variants.length === 0) return;
    const d = discriminator(variants);
    const keys = [...new Set(variants.flatMap((v) => Object.keys(v.properties!)))];
    for (const key of keys) {
      const having = variants.filter((v) => v.properties![key]);
      const all = having.length === variants.length;
      const forms = all ? '' : d ? `only with ${having.map((v) => `\`${d}: ${String(v.properties![d]!.const)}\``).join(' or ')}` : `only in the form with \`${having[0]!.required?.[0] ?? key}\``;
      const child: JsonSchemaNode = all && key === d ? { anyOf: variants.map((v) => v.properties![key]!) } : having[0]!.properties![key]!;
      const required = all && having.every((v) => v.required?.includes(key));
      rows.push(...schemaRows({ properties: { [key]: child }, required: required ? [key] : [] }, recordKeys, path, forms));
    }
  };
  for (const [key, child] of Object.entries(node.properties ?? {})) {
    const path = prefix ? `${prefix}.${key}` : key;
    rows.push({
      key: path,
      accepts: acceptsText(child),
      required: node.required?.includes(key) ?? false,
      defaultValue: child.default === undefined ? null : JSON.stringify(child.default),
      note: [child.description, note].filter(Boolean).join('; '),
    });
    visitChildren(child, path);
  }
  return rows;
}

/** The rows as a Markdown table. */
export function rowsTable(rows: readonly SchemaRow[]): string {
  const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
  return [
    '| key | accepts | required | default | notes |',
    '|---|---|---|---|---|',
    ...rows.map((r) => `| \`${r.key}\` | ${cell(r.accepts)} | ${r.required ? 'yes' : 'no'} | ${r.defaultValue === null ? '—' : `\`${cell(r.defaultValue)}\``} | ${cell(r.note)} |`),
  ].join('\n');
}
