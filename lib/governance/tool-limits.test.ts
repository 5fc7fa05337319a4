import { describe, expect, it } from 'vitest';
import { limitBreaches, limitRange, schemaLimits, type ArgumentLimit } from './tool-limits';

describe('declared tool limits', () => {
  it('reads minimum and maximum of top-level properties from an input schema', () => {
    const schema = { type: 'object', properties: { query: { type: 'string' }, top_k: { type: 'integer', minimum: 1, maximum: 8 } } };
    expect(schemaLimits(schema)).toEqual([{ argument: 'top_k', minimum: 1, maximum: 8, enforcedBy: 'the tool’s input schema' }]);
  });

  it('flags a value above a maximum or below a minimum, naming who refuses it', () => {
    const limits: ArgumentLimit[] = [{ argument: 'quantity', minimum: 10, maximum: 4000, enforcedBy: 'the restock ledger' }];
    expect(limitBreaches(limits, { sku: 'SKU-2037', quantity: 4500 }).map((b) => b.text)).toEqual(['quantity 4,500 is above the maximum of 4,000 (the restock ledger)']);
    expect(limitBreaches(limits, { quantity: 5 }).map((b) => b.text)).toEqual(['quantity 5 is below the minimum of 10 (the restock ledger)']);
    expect(limitBreaches(limits, { quantity: 4000 })).toEqual([]);
    expect(limitBreaches(limits, { quantity: '4500' })).toEqual([]);
    expect(limitRange(limits[0]!)).toBe('10 to 4,000');
  });
});
