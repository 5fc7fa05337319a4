import { describe, expect, it } from 'vitest';
import type { WeaknessFlag } from '../../harness/config';
import { pyJson } from '../../harness/pyjson';
import { loadDataset } from '../dataset/load-dataset';
import type { Product } from '../dataset/types';
import { StockroomEnvironment } from '../environment';
import { SHARED_DATASET_DIR, warnIfNoSharedDataset } from '../testing/shared-dataset';
import { haystackTokens } from './lookups';
import { matchScore } from './search-products';

describe('product matching', () => {
  const product = {
    sku: 'SKU-0042',
    name: 'Nitrile Gloves Box',
    category: 'Safety Accessories',
    tags: ['gloves'],
  } as unknown as Product;

  it('indexes content tokens, the lower-cased SKU and every token without its trailing s', () => {
    expect([...haystackTokens(product)].sort()).toEqual(
      ['0042', 'accessorie', 'accessories', 'box', 'glove', 'gloves', 'nitrile', 'safety', 'sku', 'sku-0042'].sort(),
    );
  });

  it('counts duplicate query tokens and strips a trailing s from query tokens too', () => {
    const haystack = haystackTokens(product);
    expect(matchScore(['boxes', 'box', 'box'], haystack)).toBe(2);
    expect(matchScore(['nitriles'], haystack)).toBe(1);
    expect(matchScore([], haystack)).toBe(0);
  });

  it('treats missing tags as an empty tag list', () => {
    const { tags: _, ...noTags } = product as Record<string, unknown>;
    expect(haystackTokens(noTags as Product).has('gloves')).toBe(true);
  });
});

const skus = (content: unknown) => (content as { sku: string }[]).map((p) => p.sku);
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `SKU-${from + i}`);

// SPEC.md §7.2 verification table: query, default result SKUs, oversized result count.
const TABLE: [string, string[], number][] = [
  ['stock ear defenders', ['SKU-1019'], 1],
  ['hard hats', ['SKU-1018'], 1],
  ['cordless drill', ['SKU-1008'], 1],
  ['packing tape', ['SKU-1023'], 1],
  ['nitrile gloves', ['SKU-1015'], 1],
  ['thermal label printer', ['SKU-1033', 'SKU-1026'], 2],
  ['packaging stock', range(1022, 1026), 41],
  ['cleaning stock', range(1035, 1039), 41],
  ['office supplies', range(1001, 1005), 41],
  ['workshop tools', range(1008, 1012), 41],
  ['safety equipment', range(1015, 1019), 41],
];

describe.skipIf(!warnIfNoSharedDataset())('search_products on the shared catalogue (SPEC.md §7.2)', () => {
  const env = (flags: WeaknessFlag[] = []) => new StockroomEnvironment(loadDataset(SHARED_DATASET_DIR), flags);

  it.each(TABLE)('finds %j by default', (query, expected) => {
    expect(skus(env().call('search_products', { query }).content)).toEqual(expected);
  });

  it.each(TABLE)('returns full records under oversized_payload for %j', (query, expected, count) => {
    const dataset = loadDataset(SHARED_DATASET_DIR);
    const content = env(['oversized_payload']).call('search_products', { query }).content as Product[];
    expect(content).toHaveLength(count);
    expect(skus(content)).toEqual(count === 41 ? dataset.catalogue.map((p) => p.sku) : expected);
    for (const record of content) expect(Object.keys(record)).toHaveLength(15);
  });

  it('ranks every product for a SKU query because every haystack has "sku"', () => {
    expect(skus(env().call('search_products', { query: 'SKU-1015' }).content)).toEqual([
      'SKU-1015', 'SKU-1001', 'SKU-1002', 'SKU-1003', 'SKU-1004',
    ]);
    expect(skus(env().call('search_products', { query: 'ORD-1001' }).content)).toEqual(['SKU-1001']);
  });

  it('returns compact records in key order with in_stock derived from the stock level', () => {
    const [record] = env().call('search_products', { query: 'nitrile gloves' }).content as Record<string, unknown>[];
    expect(Object.keys(record!)).toEqual(['sku', 'name', 'category', 'unit_price_usd', 'unit', 'stock_level', 'in_stock']);
    expect(record!.in_stock).toBe((record!.stock_level as number) > 0);
  });

  it('honours max_results, and treats 0 or null as the default of 5', () => {
    const e = env();
    expect(skus(e.call('search_products', { query: 'SKU-1015', max_results: 2 }).content)).toEqual(['SKU-1015', 'SKU-1001']);
    expect(skus(e.call('search_products', { query: 'SKU-1015', max_results: 0 }).content)).toHaveLength(5);
    expect(skus(e.call('search_products', { query: 'SKU-1015', max_results: null }).content)).toHaveLength(5);
    expect(e.call('search_products', { query: 'the of and' }).content).toEqual([]);
  });

  it('serialises the whole catalogue to 49,524 characters of Python-JSON (ensure_ascii false)', () => {
    const dataset = loadDataset(SHARED_DATASET_DIR);
    const result = env(['oversized_payload']).call('search_products', { query: 'zzz', max_results: 1 });
    expect(pyJson(result.content, { ensureAscii: false, floatKeys: dataset.floatKeys })).toHaveLength(49_524);
    expect(result.payloadChars).toBe(49_524);
  });
});
