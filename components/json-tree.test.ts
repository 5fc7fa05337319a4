import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { JsonTree, expandedUpTo, parsePartialJsonText } from './json-tree';

const html = (value: object, expandLevels?: number | 'all') =>
  renderToStaticMarkup(createElement(JsonTree, { value, label: 'Result of search_products', expandLevels }));

describe('JsonTree', () => {
  // Observed in the replay: a search result `[{sku: "SKU-2011", …}]` showed only `[{…}]`.
  it('shows the rows of a list result by default, not just a folded first row', () => {
    const out = html([{ sku: 'SKU-2011', name: 'Ratchet Lashing Strap 5m (pack of 4)', in_stock: true }]);
    expect(out).toContain('SKU-2011');
    expect(out).toContain('Ratchet Lashing Strap');
  });

  it('folds what is nested deeper than the levels asked for', () => {
    const value = { rows: [{ sku: 'SKU-2011', location: { aisle: 1, bin: 3 } }] };
    expect(html(value, 1)).not.toContain('SKU-2011');
    expect(html(value, 2)).toContain('SKU-2011');
    expect(html(value, 2)).not.toContain('aisle');
    expect(html(value, 'all')).toContain('aisle');
  });

  it('always opens the root', () => {
    expect(expandedUpTo(0)(0)).toBe(true);
    expect(expandedUpTo(0)(1)).toBe(false);
    expect(expandedUpTo(1)(1)).toBe(true);
    expect(expandedUpTo(1)(2)).toBe(false);
  });
});

describe('parsePartialJsonText', () => {
  it('keeps the whole values of JSON cut off mid-way and leaves out the string or number the cut went through', () => {
    expect(parsePartialJsonText('[{"sku":"SKU-2011","stock":230},{"sku":"SKU-20')).toEqual({ ok: true, value: [{ sku: 'SKU-2011', stock: 230 }, {}] });
    expect(parsePartialJsonText('{"rows":[1,2,{"qty":23')).toEqual({ ok: true, value: { rows: [1, 2, {}] } });
  });

  it('is not ok for text that is not JSON, or not an object or array', () => {
    expect(parsePartialJsonText('Error: no such SKU')).toEqual({ ok: false });
    expect(parsePartialJsonText('"a string that was cut')).toEqual({ ok: false });
  });
});
