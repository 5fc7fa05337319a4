import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { DatasetError } from '../../harness/errors';
import { fixtureFiles, removeFixtureDatasets, writeFixtureDataset } from '../testing/fixture-dataset';
import { SHARED_DATASET_DIR, warnIfNoSharedDataset } from '../testing/shared-dataset';
import { clearDatasetCache, defaultDatasetDir, loadDataset } from './load-dataset';

afterEach(() => clearDatasetCache());
afterAll(() => removeFixtureDatasets());

function loadError(overrides: Record<string, string | null>): DatasetError {
  const dir = writeFixtureDataset(overrides);
  try {
    loadDataset(dir);
  } catch (err) {
    if (err instanceof DatasetError) return err;
    throw err;
  }
  throw new Error('expected a DatasetError');
}

describe('loadDataset on a fixture', () => {
  it('loads every part, keeping unknown product keys in file order', () => {
    const dir = writeFixtureDataset();
    const ds = loadDataset(dir);
    expect(ds.dir).toBe(path.resolve(dir));
    expect(ds.name).toBe('fixture-v1');
    expect(ds.catalogue.map((p) => p.sku)).toEqual(['SKU-2001', 'SKU-2002', 'SKU-2003']);
    expect(Object.keys(ds.catalogue[0]!)).toEqual([
      'sku', 'name', 'category', 'unit_price_usd', 'unit', 'stock_level', 'reorder_point', 'location',
      'supplier_id', 'supplier_name', 'lead_time_days', 'long_description', 'tags',
    ]);
    expect(ds.orders.map((o) => o.shard)).toEqual(['primary', 'legacy']);
    expect(ds.policyDocs.map((d) => d.name)).toEqual(['a_glossary.md', 'b_policy.md']);
    expect(ds.systemPrompt).toBe('You are a fixture agent.\n');
    expect(ds.goldenFiles).toEqual([path.join(path.resolve(dir), 'golden', 'fixture_golden.jsonl')]);
    expect([...ds.mockScripts.keys()]).toEqual(['G900']);
    expect(ds.mockScripts.get('G900')!.turns[1]).toEqual({ text: 'There are 40.' });
    expect([...ds.floatKeys].sort()).toEqual(['score', 'total_usd', 'unit_price_usd']);
    expect(ds.hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('freezes what it loads and memoises by absolute directory until the cache is cleared', () => {
    const dir = writeFixtureDataset();
    const ds = loadDataset(dir);
    expect(loadDataset(dir + '/.')).toBe(ds);
    expect(Object.isFrozen(ds.catalogue[0]!.location)).toBe(true);
    clearDatasetCache();
    const again = loadDataset(dir);
    expect(again).not.toBe(ds);
    expect(again.hash).toBe(ds.hash);
  });

  it('changes the hash when any dataset file changes', () => {
    const a = loadDataset(writeFixtureDataset());
    const b = loadDataset(writeFixtureDataset({ 'policy_docs/a_glossary.md': '# Glossary\n\nChanged.\n' }));
    expect(b.hash).not.toBe(a.hash);
  });

  it('takes the folder name when tool_descriptions.json has no version', () => {
    const files = fixtureFiles();
    const desc = JSON.parse(files['agent/tool_descriptions.json']!) as { version?: string };
    delete desc.version;
    const dir = writeFixtureDataset({ 'agent/tool_descriptions.json': JSON.stringify(desc) });
    expect(loadDataset(dir).name).toBe(path.basename(dir));
  });

  it('treats golden cases and mock scripts as optional', () => {
    const ds = loadDataset(writeFixtureDataset({ 'golden/fixture_golden.jsonl': null, 'golden/mock_scripts/G900.json': null }));
    expect(ds.goldenFiles).toEqual([]);
    expect(ds.mockScripts.size).toBe(0);
  });
});

describe('loadDataset validation errors', () => {
  it('names the file and line of a JSON syntax error', () => {
    const broken = fixtureFiles()['catalogue.json']!.replace('"unit": "each",\n    "stock_level": 0', '"unit": "each",,\n    "stock_level": 0');
    const err = loadError({ 'catalogue.json': broken });
    expect(err.file).toBe('catalogue.json');
    expect(err.line).toBe(broken.split('\n').findIndex((l) => l.includes(',,')) + 1);
    expect(err.message).toMatch(/^catalogue\.json, line \d+: invalid JSON/);
  });

  it('names the line even when V8 gives no position (unexpected token)', () => {
    const err = loadError({ 'restock_rules.json': '{\n  "min_quantity": 10,\n  "auto_approve_max": 5oo\n}' });
    expect([err.file, err.line]).toEqual(['restock_rules.json', 3]);
  });

  it('names the field path of a wrong type', () => {
    const broken = fixtureFiles()['catalogue.json']!.replace('"unit_price_usd": 7.25', '"unit_price_usd": "7.25"');
    const err = loadError({ 'catalogue.json': broken });
    expect(err.field).toBe('[1].unit_price_usd');
    expect(err.message).toContain('catalogue.json, field [1].unit_price_usd: must be of type number (got "7.25")');
  });

  it('lists the allowed values of an enum', () => {
    const broken = fixtureFiles()['orders.json']!.replace('"shard": "legacy"', '"shard": "archive"');
    const err = loadError({ 'orders.json': broken });
    expect(err.file).toBe('orders.json');
    expect(err.field).toBe('[1].shard');
    expect(err.message).toContain('must be one of "primary", "legacy" (got "archive")');
  });

  it('reports a missing required key at its path', () => {
    const broken = fixtureFiles()['orders.json']!.replace('"order_id": "ORD-3001",', '');
    expect(loadError({ 'orders.json': broken }).message).toBe('orders.json, field [0].order_id: is required');
  });

  it('refuses a SKU the tool schemas could never match', () => {
    const err = loadError({ 'catalogue.json': fixtureFiles()['catalogue.json']!.replace('SKU-2003', 'SKU-23') });
    expect(err.field).toBe('[2].sku');
  });

  it('requires all five tool descriptions', () => {
    const desc = JSON.parse(fixtureFiles()['agent/tool_descriptions.json']!) as { tools: Record<string, unknown> };
    delete desc.tools.get_order_status;
    const err = loadError({ 'agent/tool_descriptions.json': JSON.stringify(desc) });
    expect(err.file).toBe('agent/tool_descriptions.json');
    expect(err.field).toBe('tools.get_order_status');
    expect(err.message).toContain('is required');
  });

  it('names the allowed tools when a description is for an unknown tool', () => {
    const desc = JSON.parse(fixtureFiles()['agent/tool_descriptions.json']!) as { tools: Record<string, unknown> };
    desc.tools.search_product = { default: 'typo' };
    const err = loadError({ 'agent/tool_descriptions.json': JSON.stringify(desc) });
    expect(err.field).toBe('tools.search_product');
    expect(err.message).toContain(
      'allowed tools: search_products, get_stock_level, get_order_status, create_restock_request, search_policy_docs',
    );
  });

  it('refuses a product whose supplier is not in suppliers.json', () => {
    const err = loadError({ 'suppliers.json': '{"SUP-02": {"name": "Other", "lead_time_days": 1}}' });
    expect([err.file, err.field]).toEqual(['catalogue.json', '[0].supplier_id']);
    expect(err.message).toContain('suppliers.json defines SUP-02');
  });

  it('checks mock scripts: turn shape and case id against the file name', () => {
    const bad = loadError({ 'golden/mock_scripts/G900.json': '{"case_id": "G900", "description": "", "turns": [{"say": "hi"}]}' });
    expect([bad.file, bad.field]).toEqual(['golden/mock_scripts/G900.json', 'turns[0]']);
    const mismatch = loadError({ 'golden/mock_scripts/G900.json': '{"case_id": "G901", "description": "", "turns": [{"text": "hi"}]}' });
    expect(mismatch.field).toBe('case_id');
    expect(mismatch.message).toContain('must equal the file name stem "G900"');
  });

  it('names a missing file relative to the dataset directory', () => {
    const err = loadError({ 'agent/system_prompt.txt': null });
    expect(err.message).toBe('agent/system_prompt.txt: file is missing');
  });

  it('refuses a directory that does not exist', () => {
    expect(() => loadDataset(path.join(writeFixtureDataset(), 'nope'))).toThrow(/dataset directory not found/);
  });

  it('refuses a file that is not UTF-8', () => {
    const dir = writeFixtureDataset();
    fs.writeFileSync(path.join(dir, 'policy_docs', 'a_glossary.md'), Buffer.from([0x23, 0x20, 0xff, 0x0a]));
    expect(() => loadDataset(dir)).toThrow('policy_docs/a_glossary.md: file is not valid UTF-8');
  });
});

describe('defaultDatasetDir', () => {
  const saved = process.env.STOCKROOM_DATASET;
  afterEach(() => {
    if (saved === undefined) delete process.env.STOCKROOM_DATASET;
    else process.env.STOCKROOM_DATASET = saved;
  });

  it('uses STOCKROOM_DATASET, else <cwd>/data', () => {
    process.env.STOCKROOM_DATASET = '/tmp/some-dataset';
    expect(defaultDatasetDir()).toBe('/tmp/some-dataset');
    process.env.STOCKROOM_DATASET = '  ';
    expect(defaultDatasetDir()).toBe(path.resolve(process.cwd(), 'data'));
  });
});

describe.skipIf(!warnIfNoSharedDataset())('loadDataset on the shared dataset', () => {
  it('reads 41 products, 25 orders, the 877-character prompt and the three mock scripts', () => {
    const ds = loadDataset(SHARED_DATASET_DIR);
    expect(ds.name).toBe('stockroom-v1');
    expect(ds.catalogue).toHaveLength(41);
    expect(ds.orders).toHaveLength(25);
    expect(ds.systemPrompt).toHaveLength(877);
    expect([...ds.mockScripts.keys()]).toEqual(['G035', 'G045', 'G046']);
    expect(ds.goldenFiles.map((f) => path.basename(f))).toEqual(['stockroom_golden_v1.jsonl']);
    expect(ds.restockRules).toMatchObject({ min_quantity: 10, auto_approve_max: 500, reject_above: 5000 });
    expect(Object.keys(ds.suppliers)).toHaveLength(12);
  });

  it('marks prices and totals (and BM25 scores) as floats, nothing else', () => {
    expect([...loadDataset(SHARED_DATASET_DIR).floatKeys].sort()).toEqual(['score', 'total_usd', 'unit_price_usd']);
  });
});
