import { describe, expect, it } from 'vitest';
import type { Product, RestockRules } from '../dataset/types';
import { BusinessRuleError } from './errors';
import { RestockLedger } from './restock-ledger';

const RULES = { min_quantity: 10, auto_approve_max: 500, reject_above: 5000 } as RestockRules;
const product = (sku: string) =>
  ({ sku, name: `Product ${sku}`, supplier_id: 'SUP-09', supplier_name: 'Volt', lead_time_days: 4 }) as unknown as Product;

function rejection(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    if (err instanceof BusinessRuleError) return err.message;
    throw err;
  }
  throw new Error('expected a rejection');
}

describe('RestockLedger', () => {
  it('creates RSR-0001 as an auto-approved open request with keys in order', () => {
    const ledger = new RestockLedger(RULES);
    const record = ledger.create({ product: product('SKU-1001'), quantity: 50 });
    expect(Object.entries(record)).toEqual([
      ['request_id', 'RSR-0001'],
      ['sku', 'SKU-1001'],
      ['product_name', 'Product SKU-1001'],
      ['quantity', 50],
      ['priority', 'standard'],
      ['status', 'open'],
      ['supplier_id', 'SUP-09'],
      ['supplier_name', 'Volt'],
      ['lead_time_days', 4],
      ['note', 'auto-approved'],
    ]);
  });

  it('holds quantities above auto_approve_max for approval and numbers requests sequentially', () => {
    const ledger = new RestockLedger(RULES);
    ledger.create({ product: product('SKU-1001'), quantity: 500, priority: 'urgent' });
    const held = ledger.create({ product: product('SKU-1002'), quantity: 501 });
    expect(held).toMatchObject({ request_id: 'RSR-0002', status: 'pending_approval', note: 'quantities above 500 units need manager approval' });
  });

  it('records a request above auto_approve_max as open when it comes with the approval a reviewer gave for it', () => {
    const ledger = new RestockLedger(RULES);
    const signed = ledger.create({ product: product('SKU-1002'), quantity: 750 }, 'op:1', { id: 'apr_1' });
    expect(signed).toMatchObject({ status: 'open', note: 'approved by a reviewer (apr_1)' });
    // An approval changes nothing below the limit: that request was approved automatically anyway.
    expect(ledger.create({ product: product('SKU-1003'), quantity: 50 }, 'op:2', { id: 'apr_2' })).toMatchObject({ status: 'open', note: 'auto-approved' });
  });

  it('words the approval note with the dataset threshold', () => {
    const ledger = new RestockLedger({ ...RULES, auto_approve_max: 1000 } as RestockRules);
    expect(ledger.create({ product: product('SKU-1001'), quantity: 1001 }).note).toBe('quantities above 1000 units need manager approval');
  });

  it('applies the rules in order with the reference messages and records nothing on rejection', () => {
    const ledger = new RestockLedger(RULES);
    expect(rejection(() => ledger.create({ product: product('SKU-1001'), quantity: 9 }))).toBe(
      'rejected: the minimum restock quantity is 10 units (requested 9)',
    );
    expect(rejection(() => ledger.create({ product: product('SKU-1001'), quantity: 10000 }))).toBe(
      'rejected: quantities above 5,000 units are rejected automatically; contact Inventory Planning',
    );
    expect(ledger.records()).toEqual([]);
    ledger.create({ product: product('SKU-1001'), quantity: 5000 });
    expect(rejection(() => ledger.create({ product: product('SKU-1001'), quantity: 20 }))).toBe(
      'rejected: there is already an open restock request for SKU-1001',
    );
    // Quantity rules are checked before the open-request rule.
    expect(rejection(() => ledger.create({ product: product('SKU-1001'), quantity: 1 }))).toMatch(/minimum/);
    expect(ledger.records().map((r) => r.request_id)).toEqual(['RSR-0001']);
  });

  it('returns the same record for a repeated operation key without raising a second request', () => {
    const ledger = new RestockLedger(RULES);
    const first = ledger.create({ product: product('SKU-1001'), quantity: 40 }, 'op-1');
    const again = ledger.create({ product: product('SKU-1001'), quantity: 40 }, 'op-1');
    expect(again).toEqual(first);
    expect(Object.keys(again)).not.toContain('operation_key');
    expect(ledger.records()).toHaveLength(1);
    expect(ledger.findByOperationKey('op-1')).toEqual(first);
    expect(ledger.findByOperationKey('op-2')).toBeUndefined();
    expect(ledger.entriesWithKeys()[0]!.operationKey).toBe('op-1');
    // A different key is a new request and meets the open-request rule.
    expect(rejection(() => ledger.create({ product: product('SKU-1001'), quantity: 40 }, 'op-2'))).toMatch(/already an open/);
  });

  it('hands out copies, so callers cannot change the ledger', () => {
    const ledger = new RestockLedger(RULES);
    const record = ledger.create({ product: product('SKU-1001'), quantity: 40 });
    record.quantity = 1;
    ledger.records()[0]!.status = 'pending_approval';
    expect(ledger.records()[0]).toMatchObject({ quantity: 40, status: 'open' });
  });

  it('starts again from RSR-0001 after reset', () => {
    const ledger = new RestockLedger(RULES);
    ledger.create({ product: product('SKU-1001'), quantity: 40 }, 'op-1');
    ledger.reset();
    expect(ledger.records()).toEqual([]);
    expect(ledger.findByOperationKey('op-1')).toBeUndefined();
    expect(ledger.create({ product: product('SKU-1001'), quantity: 40 }).request_id).toBe('RSR-0001');
  });
});
