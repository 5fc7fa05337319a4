import { describe, expect, it } from 'vitest';
import { limitBreaches } from '../../governance/tool-limits';
import { loadDataset } from '../dataset/load-dataset';
import { inputSchemaFor } from '../tools/tool-specs';
import { stockroomDownstream } from './downstream';

describe('the Stockroom downstream declaration', () => {
  const dataset = loadDataset('data');

  it('declares the restock ledger’s quantity limits from restock_rules.json, so S025’s 4,500 units are flagged', () => {
    const declared = stockroomDownstream(dataset.restockRules, 'create_restock_request')!;
    expect(declared.limits).toEqual([expect.objectContaining({ argument: 'quantity', minimum: dataset.restockRules.min_quantity, maximum: dataset.restockRules.reject_above })]);
    expect(limitBreaches(declared.limits, { sku: 'SKU-2037', quantity: dataset.restockRules.reject_above + 500 })).toHaveLength(1);
    expect(stockroomDownstream(dataset.restockRules, 'get_stock_level')).toBeNull();
  });

  it('leaves the schema the model sees as SPEC §6.3 prints it (no maximum on quantity)', () => {
    expect(inputSchemaFor('create_restock_request')).toMatchObject({ properties: { quantity: { type: 'integer', minimum: 1 } } });
    expect((inputSchemaFor('create_restock_request').properties as Record<string, Record<string, unknown>>).quantity).not.toHaveProperty('maximum');
  });
});
