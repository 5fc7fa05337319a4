/** The planner's tool choice is remembered per spec list: each list still gets its own answer. */
import { describe, expect, it } from 'vitest';
import { selectTool } from './planner';

const spec = (name: string, description: string) => ({ name, description, inputSchema: {} });

describe('selectTool', () => {
  it('answers each spec list by its own descriptions, the same every time it is asked', () => {
    const clear = [spec('search_products', 'Search the product catalogue by name or category keyword.'), spec('get_stock_level', 'Current stock level and units in stock for a SKU.')];
    // ambiguous_tool_desc's kind of list: the stock tool's description says nothing of stock.
    const vague = [spec('search_products', 'Search products: stock level, units in stock for a sku.'), spec('get_stock_level', 'Gets data.')];
    expect(selectTool('stock', clear)).toBe('get_stock_level');
    expect(selectTool('stock', vague)).toBe('search_products');
    expect(selectTool('stock', clear)).toBe('get_stock_level');
    expect(selectTool('search', clear)).toBe('search_products');
    expect(selectTool('stock', vague)).toBe('search_products');
  });
});
