import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { JsonTree, expandedUpTo } from './json-tree';

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
