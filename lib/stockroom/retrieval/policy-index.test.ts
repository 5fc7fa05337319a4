import { describe, expect, it } from 'vitest';
import { loadDataset } from '../dataset/load-dataset';
import { SHARED_DATASET_DIR, warnIfNoSharedDataset } from '../testing/shared-dataset';
import { PolicyIndex, policyIndexFor } from './policy-index';

const DOCS = [
  { name: 'a.md', text: '# Alpha\n\n## 1. Widgets\nwidgets widgets are blue\n\n## 2. Gadgets\ngadgets are red and the widgets too' },
  { name: 'b.md', text: '# Beta\n\nnothing relevant here at all' },
];

describe('PolicyIndex', () => {
  it('scores with Okapi BM25 (k1 1.5, b 0.75), ranking by score then chunk id', () => {
    const index = PolicyIndex.build(DOCS);
    const hits = index.search('widgets', 5);
    expect(hits.map((h) => h.chunk.chunkId)).toEqual(['a.md#1', 'a.md#2']);
    // a.md#1: tokens "alpha widgets 1 widgets widgets widgets are blue" (8), tf 4, df 2 of 4 chunks.
    const avgdl = index.avgdl;
    const idf = Math.log(1 + (4 - 2 + 0.5) / (2 + 0.5));
    const expected = (idf * (4 * 2.5)) / (4 + 1.5 * (1 - 0.75 + (0.75 * 8) / avgdl));
    expect(hits[0]!.score).toBe(expected);
  });

  it('drops stopwords from the query only and counts a repeated query token twice', () => {
    const index = PolicyIndex.build(DOCS);
    expect(index.search('the are', 3)).toEqual([]);
    const once = index.search('gadgets', 3)[0]!.score;
    expect(index.search('gadgets gadgets', 3)[0]!.score).toBeCloseTo(2 * once, 12);
  });

  it('returns nothing for a non-matching query and honours k', () => {
    const index = PolicyIndex.build(DOCS);
    expect(index.search('zebra', 3)).toEqual([]);
    expect(index.search('widgets', 1)).toHaveLength(1);
  });

  it('is built once per dataset object', () => {
    const dataset = { policyDocs: DOCS };
    expect(policyIndexFor(dataset)).toBe(policyIndexFor(dataset));
  });
});

// SPEC.md §5.4: planner queries and their top-3 results, scores to 3 dp.
const SEARCH_TABLE: [string, [string, number][]][] = [
  ['return window unused items', [['returns_policy.md#1', 12.337], ['returns_policy.md#2', 2.97], ['returns_policy.md#5', 2.938]]],
  ['standard shipping cost free', [['shipping_policy.md#1', 7.09], ['shipping_policy.md#3', 3.311], ['shipping_policy.md#4', 3.044]]],
  ['restocking fee returned power tools', [['returns_policy.md#4', 15.208], ['warranty_policy.md#1', 3.271], ['supplier_lead_times.md#0', 2.945]]],
  ['warranty cordless drill', [['warranty_policy.md#1', 5.52], ['warranty_policy.md#3', 5.16], ['warranty_policy.md#0', 2.868]]],
  ['standard lead time scantech devices', [['supplier_lead_times.md#0', 10.521], ['restock_policy.md#3', 6.498], ['shipping_policy.md#3', 4.743]]],
  ['scan parcel lost', [['shipping_policy.md#4', 10.947], ['shipping_policy.md#2', 2.445]]],
  ['restock policy quantities above 500 units', [['restock_policy.md#2', 12.344], ['stockroom_glossary.md#0', 3.878], ['restock_policy.md#4', 2.987]]],
  ['summarise restock policy', [['restock_policy.md#0', 2.251], ['restock_policy.md#1', 2.163], ['restock_policy.md#2', 1.897]]],
  ['priority restock request stock zero', [['restock_policy.md#3', 9.241], ['restock_policy.md#4', 6.696], ['restock_policy.md#1', 6.492]]],
  ['restock requests cancelled', [['restock_policy.md#4', 4.846], ['restock_policy.md#2', 4.306], ['restock_policy.md#5', 4.257]]],
];

describe.skipIf(!warnIfNoSharedDataset())('BM25 over the shared corpus (SPEC.md §5.4)', () => {
  it.each(SEARCH_TABLE)('ranks %j as in the verification table', (query, expected) => {
    const index = policyIndexFor(loadDataset(SHARED_DATASET_DIR));
    const hits = index.search(query, 3).map((h) => [h.chunk.chunkId, Number(h.score.toFixed(3))]);
    expect(hits).toEqual(expected);
  });
});
