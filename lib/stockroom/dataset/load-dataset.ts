/**
 * Loads and validates a dataset directory (SPEC.md §3, §5.1). Everything the tools need is read
 * once here; tool calls never touch the file system.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { DatasetError } from '../../harness';
import type { JsonValue } from '../../harness';
import { collectFloatKeys } from './float-keys';
import { assertSchema } from './issues';
import { DatasetReader } from './read-files';
import {
  CatalogueSchema,
  MockScriptSchema,
  OrdersSchema,
  RestockRulesSchema,
  SuppliersSchema,
  ToolDescriptionsSchema,
} from './schemas';
import {
  TOOL_NAMES,
  type Dataset,
  type MockScript,
  type Order,
  type PolicyDoc,
  type Product,
  type RestockRules,
  type Supplier,
  type ToolDescriptions,
} from './types';
import { deepFreeze } from '../deep-freeze';

export const CATALOGUE_FILE = 'catalogue.json';
export const ORDERS_FILE = 'orders.json';
export const RESTOCK_RULES_FILE = 'restock_rules.json';
export const SUPPLIERS_FILE = 'suppliers.json';
export const POLICY_DOCS_DIR = 'policy_docs';
/** Instructor notes beside the corpus, not part of it (SPEC.md §5.1). */
export const POLICY_README = 'README.md';
export const GOLDEN_DIR = 'golden';
export const MOCK_SCRIPTS_DIR = 'golden/mock_scripts';
export const SYSTEM_PROMPT_FILE = 'agent/system_prompt.txt';
export const TOOL_DESCRIPTIONS_FILE = 'agent/tool_descriptions.json';

/** Scores are BM25 floats (SPEC.md §7.6) even though no data file holds one. */
const ALWAYS_FLOAT_KEYS = ['score'];

const cache = new Map<string, Dataset>();

/** `STOCKROOM_DATASET`, else `<cwd>/data`. */
export function defaultDatasetDir(): string {
  const fromEnv = process.env.STOCKROOM_DATASET;
  return fromEnv && fromEnv.trim() !== '' ? path.resolve(fromEnv) : path.resolve(process.cwd(), 'data');
}

/** Forgets every loaded dataset (tests that rewrite a fixture directory need this). */
export function clearDatasetCache(): void {
  cache.clear();
}

/**
 * Loads, validates and freezes the dataset in `dir`; memoised by absolute directory. Throws
 * DatasetError naming the file (relative to `dir`), the line of a JSON syntax error and the field.
 */
export function loadDataset(dir: string): Dataset {
  const abs = path.resolve(dir);
  const cached = cache.get(abs);
  if (cached) return cached;
  const dataset = readDataset(abs);
  cache.set(abs, dataset);
  return dataset;
}

function readDataset(dir: string): Dataset {
  if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) {
    throw new DatasetError('.', `dataset directory not found: ${dir}`);
  }
  const reader = new DatasetReader(dir);
  const floatKeys = new Set<string>(ALWAYS_FLOAT_KEYS);

  const catalogue = readValidated(reader, CATALOGUE_FILE, CatalogueSchema, floatKeys) as Product[];
  const orders = readValidated(reader, ORDERS_FILE, OrdersSchema, floatKeys) as Order[];
  const restockRules = readValidated(reader, RESTOCK_RULES_FILE, RestockRulesSchema) as RestockRules;
  const suppliers = readValidated(reader, SUPPLIERS_FILE, SuppliersSchema) as Record<string, Supplier>;
  checkSuppliers(catalogue, suppliers);

  const policyDocs = readPolicyDocs(reader);
  const systemPrompt = reader.text(SYSTEM_PROMPT_FILE);
  const toolDescriptions = readToolDescriptions(reader);
  const mockScripts = readMockScripts(reader);
  const goldenFiles = reader.list(GOLDEN_DIR, '.jsonl').map((name) => {
    reader.bytes(`${GOLDEN_DIR}/${name}`); // hashed, parsed elsewhere
    return reader.abs(`${GOLDEN_DIR}/${name}`);
  });

  return Object.freeze({
    dir,
    name: toolDescriptions.version ?? path.basename(dir),
    hash: hashFiles(reader.read),
    catalogue: deepFreeze(catalogue),
    orders: deepFreeze(orders),
    restockRules: deepFreeze(restockRules),
    suppliers: deepFreeze(suppliers),
    policyDocs: deepFreeze(policyDocs),
    systemPrompt,
    toolDescriptions: deepFreeze(toolDescriptions),
    mockScripts,
    goldenFiles: Object.freeze(goldenFiles) as string[],
    floatKeys,
  });
}

function readValidated(
  reader: DatasetReader,
  rel: string,
  schema: Parameters<typeof assertSchema>[0],
  floatKeys?: Set<string>,
): JsonValue {
  const { value, text } = reader.json(rel);
  assertSchema(schema, value, rel);
  if (floatKeys) collectFloatKeys(text, floatKeys);
  // The parsed value itself is kept (not zod's output) so unknown keys stay in file order.
  return value;
}

function checkSuppliers(catalogue: Product[], suppliers: Record<string, Supplier>): void {
  catalogue.forEach((product, i) => {
    if (!Object.prototype.hasOwnProperty.call(suppliers, product.supplier_id)) {
      throw new DatasetError(
        CATALOGUE_FILE,
        `unknown supplier ${JSON.stringify(product.supplier_id)}; ${SUPPLIERS_FILE} defines ${Object.keys(suppliers).join(', ') || 'none'}`,
        { field: `[${i}].supplier_id` },
      );
    }
  });
}

function readPolicyDocs(reader: DatasetReader): PolicyDoc[] {
  if (!reader.exists(POLICY_DOCS_DIR)) throw new DatasetError(POLICY_DOCS_DIR, 'directory is missing');
  return reader
    .list(POLICY_DOCS_DIR, '.md')
    .filter((name) => name !== POLICY_README)
    .map((name) => ({ name, text: reader.text(`${POLICY_DOCS_DIR}/${name}`) }));
}

function readToolDescriptions(reader: DatasetReader): ToolDescriptions {
  const { value } = reader.json(TOOL_DESCRIPTIONS_FILE);
  const tools = (value as { tools?: unknown } | null)?.tools;
  if (tools && typeof tools === 'object' && !Array.isArray(tools)) {
    // Checked before the schema so the message lists the tool names that are allowed.
    for (const name of Object.keys(tools)) {
      if (!(TOOL_NAMES as readonly string[]).includes(name)) {
        throw new DatasetError(TOOL_DESCRIPTIONS_FILE, `unknown tool; allowed tools: ${TOOL_NAMES.join(', ')}`, {
          field: `tools.${name}`,
        });
      }
    }
  }
  assertSchema(ToolDescriptionsSchema, value, TOOL_DESCRIPTIONS_FILE);
  return value as unknown as ToolDescriptions;
}

function readMockScripts(reader: DatasetReader): ReadonlyMap<string, MockScript> {
  const scripts = new Map<string, MockScript>();
  for (const name of reader.list(MOCK_SCRIPTS_DIR, '.json')) {
    const rel = `${MOCK_SCRIPTS_DIR}/${name}`;
    const { value } = reader.json(rel);
    assertSchema(MockScriptSchema, value, rel);
    const script = value as unknown as MockScript;
    const stem = name.slice(0, -'.json'.length);
    // Scripts are looked up by file stem; a mismatched case_id would silently never replay.
    if (script.case_id !== stem) {
      throw new DatasetError(rel, `must equal the file name stem ${JSON.stringify(stem)} (got ${JSON.stringify(script.case_id)})`, {
        field: 'case_id',
      });
    }
    scripts.set(stem, deepFreeze(script));
  }
  return scripts;
}

/** sha256 over (relative path, NUL, byte length, NUL, bytes) of every file read, sorted by path. */
function hashFiles(files: ReadonlyMap<string, Uint8Array>): string {
  const hash = createHash('sha256');
  for (const rel of [...files.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))) {
    const bytes = files.get(rel) as Uint8Array;
    hash.update(`${rel}\0${bytes.length}\0`);
    hash.update(bytes);
  }
  return hash.digest('hex');
}
