import { describe, expect, it } from 'vitest';
import { contextFromRun, gradeFaithfulness, splitClaims } from './faithfulness';
import { toolRecord } from './testing/fixtures';

describe('contextFromRun', () => {
  it('lists executed calls with ASCII-escaped Python-JSON and cuts each result at 1500 characters', () => {
    const long = 'x'.repeat(2000);
    const ctx = contextFromRun([
      toolRecord('get_order_status', { order_id: 'ORD-1' }, { resultContent: { customer: 'Tomás', total_usd: 28 } }),
      toolRecord('search', { query: 'a' }, { validationError: 'bad' }),
      toolRecord('search', { query: 'b' }, { resultContent: long }),
    ], new Set(['total_usd']));
    const lines = ctx.split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toBe('get_order_status({"order_id": "ORD-1"}) -> {"customer": "Tom\\u00e1s", "total_usd": 28.0}');
    expect(lines[1]).toBe(`search({"query": "b"}) -> "${'x'.repeat(1499)}`);
  });
});

describe('splitClaims', () => {
  it('splits after sentence punctuation and on newlines, dropping parts of three characters or fewer', () => {
    expect(splitClaims('  First claim. Second; ok. Third!\n\nFourth line?  ')).toEqual(['First claim.', 'Second;', 'Third!', 'Fourth line?']);
    expect(splitClaims('v1.2 stays whole')).toEqual(['v1.2 stays whole']);
  });
});

describe('gradeFaithfulness', () => {
  it('scores supported claims over all claims and passes at 0.8', () => {
    const ctx = 'get({"sku": "SKU-1001"}) -> {"stock_level": 1250, "status": "shipped"}';
    expect(gradeFaithfulness('SKU-1001 has 1,250 units. It shipped.', ctx)).toMatchObject({ score: 1, passed: true, claims: 2 });
    const partial = gradeFaithfulness('SKU-1001 has 1,250 units. It costs $12.90. Thanks for asking.', ctx);
    expect(partial).toMatchObject({ score: 0.6667, passed: false, supported: 2 });
    expect(partial.unsupportedClaims).toEqual(['It costs $12.90.']);
  });

  it('scores an answer without claims as fully faithful', () => {
    expect(gradeFaithfulness('Ok.', '')).toMatchObject({ score: 1, passed: true, claims: 0 });
  });
});
