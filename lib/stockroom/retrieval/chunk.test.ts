import { describe, expect, it } from 'vitest';
import { tokenize } from '../../harness/text';
import { loadDataset } from '../dataset/load-dataset';
import { SHARED_DATASET_DIR, warnIfNoSharedDataset } from '../testing/shared-dataset';
import { chunkDocument } from './chunk';
import { PolicyIndex } from './policy-index';

describe('chunkDocument', () => {
  it('makes a section-0 preamble chunk and one chunk per numbered heading, titled with an em dash', () => {
    const chunks = chunkDocument('p.md', '# Policy  \n\nIntro.\n\n## 1. First part \nBody one.\n\n## 12.Second\nBody two.\n');
    expect(chunks).toEqual([
      { chunkId: 'p.md#0', doc: 'p.md', section: '0', title: 'Policy', text: '# Policy  \n\nIntro.' },
      { chunkId: 'p.md#1', doc: 'p.md', section: '1', title: 'Policy \u2014 First part', text: '## 1. First part \nBody one.' },
      { chunkId: 'p.md#12', doc: 'p.md', section: '12', title: 'Policy \u2014 Second', text: '## 12.Second\nBody two.' },
    ]);
  });

  it('keeps a document without numbered headings as one section-0 chunk, including its title line', () => {
    expect(chunkDocument('g.md', '\n# Glossary\n\nTerm: meaning.\n## Unnumbered\nmore\n')).toEqual([
      { chunkId: 'g.md#0', doc: 'g.md', section: '0', title: 'Glossary', text: '# Glossary\n\nTerm: meaning.\n## Unnumbered\nmore' },
    ]);
  });

  it('falls back to the file name as title and skips an empty preamble', () => {
    const chunks = chunkDocument('x.md', '## 1. Only\ntext');
    expect(chunks.map((c) => [c.chunkId, c.title])).toEqual([['x.md#1', 'x.md \u2014 Only']]);
  });
});

// SPEC.md §5.2: chunk id, title, len(text), token count of `title + " " + text`.
const CHUNK_TABLE: [string, string, number, number][] = [
  ['restock_policy.md#0', 'Stockroom Restock Policy', 118, 18],
  ['restock_policy.md#1', 'Stockroom Restock Policy — When to raise a restock request', 270, 57],
  ['restock_policy.md#2', 'Stockroom Restock Policy — Quantity rules', 438, 69],
  ['restock_policy.md#3', 'Stockroom Restock Policy — Priorities', 359, 54],
  ['restock_policy.md#4', 'Stockroom Restock Policy — Request record', 680, 107],
  ['restock_policy.md#5', 'Stockroom Restock Policy — Reporting', 150, 25],
  ['returns_policy.md#0', 'Stockroom Returns Policy', 119, 18],
  ['returns_policy.md#1', 'Stockroom Returns Policy — Return window', 303, 55],
  ['returns_policy.md#2', 'Stockroom Returns Policy — Non-returnable items', 343, 54],
  ['returns_policy.md#3', 'Stockroom Returns Policy — Damaged or defective deliveries', 221, 42],
  ['returns_policy.md#4', 'Stockroom Returns Policy — Restocking fee', 253, 45],
  ['returns_policy.md#5', 'Stockroom Returns Policy — How to start a return', 302, 56],
  ['shipping_policy.md#0', 'Stockroom Shipping Policy', 110, 17],
  ['shipping_policy.md#1', 'Stockroom Shipping Policy — Service levels', 495, 78],
  ['shipping_policy.md#2', 'Stockroom Shipping Policy — Carriers and tracking', 295, 55],
  ['shipping_policy.md#3', 'Stockroom Shipping Policy — Backorders and split shipments', 356, 64],
  ['shipping_policy.md#4', 'Stockroom Shipping Policy — Delivery problems', 404, 65],
  ['shipping_policy.md#5', 'Stockroom Shipping Policy — International', 137, 27],
  ['stockroom_glossary.md#0', 'Stockroom Glossary', 1379, 208],
  ['supplier_lead_times.md#0', 'Supplier Lead-Time Schedule', 1510, 211],
  ['warranty_policy.md#0', 'Stockroom Warranty Policy', 120, 18],
  ['warranty_policy.md#1', 'Stockroom Warranty Policy — Coverage periods', 472, 66],
  ['warranty_policy.md#2', 'Stockroom Warranty Policy — What is covered', 134, 26],
  ['warranty_policy.md#3', 'Stockroom Warranty Policy — What is not covered', 232, 41],
  ['warranty_policy.md#4', 'Stockroom Warranty Policy — Making a claim', 230, 42],
];

describe.skipIf(!warnIfNoSharedDataset())('the shared corpus (SPEC.md §5.2)', () => {
  it('splits into the 25 chunks of the verification table, in file-name order', () => {
    const index = PolicyIndex.build(loadDataset(SHARED_DATASET_DIR).policyDocs);
    const actual = index.chunks.map((c) => [c.chunkId, c.title, c.text.length, tokenize(`${c.title} ${c.text}`).length]);
    expect(actual).toEqual(CHUNK_TABLE);
    expect(index.avgdl).toBeCloseTo(1518 / 25, 12);
  });

  it('takes the six documents in file-name order and leaves the README out', () => {
    expect(loadDataset(SHARED_DATASET_DIR).policyDocs.map((d) => d.name)).toEqual([
      'restock_policy.md',
      'returns_policy.md',
      'shipping_policy.md',
      'stockroom_glossary.md',
      'supplier_lead_times.md',
      'warranty_policy.md',
    ]);
  });
});
