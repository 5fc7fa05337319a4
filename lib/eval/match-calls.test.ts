import { describe, expect, it } from 'vitest';
import { argsMatch, argumentCorrectness, matchCalls, toolSelection } from './match-calls';

const call = (name: string, args: Record<string, unknown> = {}) => ({ name, arguments: args as never });
const want = (name: string, args: Record<string, unknown> = {}) => ({ name, args: args as never });

describe('argsMatch', () => {
  it('compares queries as content-token subsets', () => {
    expect(argsMatch({ query: 'ear defenders' }, { query: 'stock ear defenders' })).toBe(true);
    expect(argsMatch({ query: 'the ear defenders' }, { query: 'defenders ear' })).toBe(true);
    expect(argsMatch({ query: 'ear defenders' }, { query: 'ear plugs' })).toBe(false);
  });

  it('compares numbers with Python float() semantics', () => {
    expect(argsMatch({ quantity: 50 }, { quantity: 50.0 })).toBe(true);
    expect(argsMatch({ quantity: 50 }, { quantity: '50' })).toBe(true);
    expect(argsMatch({ quantity: 50 }, { quantity: ' 5_0 ' })).toBe(true);
    expect(argsMatch({ quantity: 50 }, { quantity: '' })).toBe(false);
    expect(argsMatch({ quantity: 50 }, { quantity: null })).toBe(false);
    expect(argsMatch({ quantity: 50 }, { quantity: 'fifty' })).toBe(false);
    expect(argsMatch({ quantity: 1 }, { quantity: true })).toBe(true);
  });

  it('compares everything else as case-insensitive Python str()', () => {
    expect(argsMatch({ sku: 'SKU-1001' }, { sku: 'sku-1001' })).toBe(true);
    expect(argsMatch({ flag: true }, { flag: 'True' })).toBe(true);
    expect(argsMatch({ flag: true }, { flag: 'true' })).toBe(true);
    expect(argsMatch({ note: null }, { note: 'None' })).toBe(true);
    expect(argsMatch({ tags: ['a'] }, { tags: "['a']" })).toBe(true);
  });

  it('fails on a missing key or a non-object, and ignores extra keys', () => {
    expect(argsMatch({ sku: 'SKU-1' }, {})).toBe(false);
    expect(argsMatch({}, 'SKU-1')).toBe(false);
    expect(argsMatch({ sku: 'SKU-1' }, { sku: 'SKU-1', priority: 'urgent' })).toBe(true);
  });
});

describe('matchCalls', () => {
  it('exact: same names in the same order, else every alignment is null', () => {
    const actual = [call('a'), call('b')];
    expect(matchCalls([want('a'), want('b')], actual, 'exact')).toEqual({ namesOk: true, aligned: actual });
    expect(matchCalls([want('b'), want('a')], actual, 'exact')).toEqual({ namesOk: false, aligned: [null, null] });
    expect(matchCalls([want('a')], actual, 'exact').namesOk).toBe(false);
  });

  it('in_order_subset: allows extra calls and consumes the calls it skips', () => {
    const actual = [call('x'), call('a'), call('y'), call('b')];
    const m = matchCalls([want('a'), want('b')], actual, 'in_order_subset');
    expect(m.namesOk).toBe(true);
    expect(m.aligned).toEqual([actual[1], actual[3]]);
    const reversed = matchCalls([want('b'), want('a')], actual, 'in_order_subset');
    expect(reversed.namesOk).toBe(false);
    expect(reversed.aligned).toEqual([actual[3], null]);
  });

  it('any_order: equal name multisets; aligns to an args-matching record first', () => {
    const actual = [call('s', { sku: 'B' }), call('s', { sku: 'A' })];
    const m = matchCalls([want('s', { sku: 'A' }), want('s', { sku: 'B' })], actual, 'any_order');
    expect(m.namesOk).toBe(true);
    expect(m.aligned).toEqual([actual[1], actual[0]]);
    const short = matchCalls([want('s'), want('s'), want('s')], actual, 'any_order');
    expect(short.namesOk).toBe(false);
    expect(short.aligned[2]).toBeNull();
  });
});

describe('toolSelection', () => {
  it('is 0 when a must-not-call tool ran, even if the names match', () => {
    expect(toolSelection([want('a')], [call('a')], 'exact', ['a'])).toBe(0);
    expect(toolSelection([want('a')], [call('a')], 'exact', [])).toBe(1);
    expect(toolSelection([want('a')], [call('b')], 'exact', [])).toBe(0);
  });
});

describe('argumentCorrectness', () => {
  it('is 1 when no tools are expected and none ran, 0 when something ran', () => {
    expect(argumentCorrectness([], [], 'exact')).toBe(1);
    expect(argumentCorrectness([], [call('a')], 'exact')).toBe(0);
  });

  it('is the share of expected calls whose aligned record matches', () => {
    const actual = [call('s', { query: 'red' }), call('s', { query: 'green' })];
    const expected = [want('s', { query: 'red' }), want('s', { query: 'green' }), want('s', { query: 'blue' })];
    expect(argumentCorrectness(expected, actual, 'any_order')).toBe(2 / 3);
    // Alignment is greedy: `blue` takes the unmatched `green` record, leaving nothing for `green`.
    const greedy = [want('s', { query: 'red' }), want('s', { query: 'blue' }), want('s', { query: 'green' })];
    expect(argumentCorrectness(greedy, actual, 'any_order')).toBe(1 / 3);
    expect(argumentCorrectness([want('s', { query: 'red' }), want('s', { query: 'blue' })], actual, 'exact')).toBe(0.5);
  });
});
