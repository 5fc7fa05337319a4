import { describe, expect, it } from 'vitest';
import type { ToolRecord } from '../types';
import { checkCitation, checkMustInclude, checkPlaceholders, checkRequireTools } from './rules';

function rec(name: string, resultContent: ToolRecord['resultContent'], ok = true): ToolRecord {
  return {
    kind: 'tool_call', step: 1, toolUseId: 't', name, arguments: {}, signature: `${name}:{}`, resultContent,
    isError: !ok, errorCode: ok ? null : 'transient', validationError: null, blockedBy: null, executed: true,
    payloadChars: 0, latencyMs: 0, sanitized: false, quarantinedLines: 0, quarantinedText: [], rewrittenBy: [], policy: null,
  };
}

describe('require_tools', () => {
  it('is met by a successful call of each named tool', () => {
    expect(checkRequireTools(['get_stock_level'], [rec('get_stock_level', { sku: 'SKU-2001' })]).met).toBe(true);
  });
  it('is unmet without the call, or when the call failed, and names the tool', () => {
    const r = checkRequireTools(['get_stock_level'], [rec('get_stock_level', { error: 'x' }, false)]);
    expect(r.met).toBe(false);
    expect(r.detail).toContain('get_stock_level');
    expect(checkRequireTools(['get_stock_level'], []).met).toBe(false);
  });
});

describe('must_include', () => {
  it('is met case-insensitively', () => {
    expect(checkMustInclude(['Units'], '40 units in stock').met).toBe(true);
  });
  it('names every missing text', () => {
    const r = checkMustInclude(['SKU-2001', 'warehouse'], 'It has 40 units.');
    expect(r.met).toBe(false);
    expect(r.detail).toContain('"SKU-2001"');
    expect(r.detail).toContain('"warehouse"');
  });
});

describe('require_citation', () => {
  const looked = [rec('get_stock_level', { sku: 'SKU-2001', units: 40 })];
  it('is met when the answer names an id a tool result contains', () => {
    expect(checkCitation('SKU-2001 has 40 units.', looked).met).toBe(true);
  });
  it('is met by a bracketed reference found in a result', () => {
    expect(checkCitation('Returns take 30 days [returns-policy].', [rec('search_policy_docs', [{ doc_id: 'returns-policy', text: '30 days' }])]).met).toBe(true);
  });
  it('is unmet when the id is not from a result, or nothing was looked up', () => {
    expect(checkCitation('SKU-9999 has 40 units.', looked).met).toBe(false);
    expect(checkCitation('SKU-2001 has 40 units.', []).met).toBe(false);
  });
});

describe('no_placeholders', () => {
  it.each(['Your order ships on [insert date].', 'TODO: add the count', 'Dear {{name}},', 'Tracking XXXX'])('flags %j', (text) => {
    expect(checkPlaceholders(text).met).toBe(false);
  });
  it.each(['The XXL jacket is in stock.', 'Nothing to do today.', 'See [returns-policy] for details.'])('passes %j', (text) => {
    expect(checkPlaceholders(text).met).toBe(true);
  });
});
