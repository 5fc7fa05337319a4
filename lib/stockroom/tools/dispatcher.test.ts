import { afterAll, describe, expect, it } from 'vitest';
import type { WeaknessFlag } from '../../harness/config';
import { loadDataset } from '../dataset/load-dataset';
import { StockroomEnvironment } from '../environment';
import { removeFixtureDatasets, writeFixtureDataset } from '../testing/fixture-dataset';

afterAll(() => removeFixtureDatasets());

let fixtureDir: string | undefined;
/** A fresh environment (clean ledger and shard) over one shared fixture directory. */
const fixtureEnv = (flags: WeaknessFlag[] = []) =>
  new StockroomEnvironment(loadDataset((fixtureDir ??= writeFixtureDataset())), flags);

describe('the dispatcher result wrapper (SPEC.md §7.1)', () => {
  it('reports an unknown tool with error then message, ASCII-escaped payload length', () => {
    const result = fixtureEnv().call('delete_everything', {});
    expect(result).toEqual({
      content: { error: 'unknown_tool', message: 'unknown tool delete_everything' },
      isError: true,
      errorCode: 'unknown_tool',
      payloadChars: '{"error": "unknown_tool", "message": "unknown tool delete_everything"}'.length,
    });
    expect(Object.keys(result.content as object)).toEqual(['error', 'message']);
  });

  it('turns business-rule errors into invalid_request results', () => {
    expect(fixtureEnv().call('get_stock_level', { sku: 'SKU-9999' }).content).toEqual({
      error: 'invalid_request',
      message: 'unknown SKU SKU-9999',
    });
    expect(fixtureEnv().call('get_order_status', { order_id: 'ORD-0000' }).content).toEqual({
      error: 'invalid_request',
      message: 'unknown order ORD-0000',
    });
  });

  it.each([
    ['search_products', [1, 2], "bad arguments: arguments must be a JSON object, got list"],
    ['search_products', null, 'bad arguments: arguments must be a JSON object, got NoneType'],
    ['get_stock_level', { sku: 'SKU-2001', nope: 1 }, "bad arguments: get_stock_level() got an unexpected keyword argument 'nope'"],
    ['get_stock_level', {}, "bad arguments: get_stock_level() missing 1 required positional argument: 'sku'"],
    ['create_restock_request', {}, "bad arguments: create_restock_request() missing 2 required positional arguments: 'sku' and 'quantity'"],
    ['create_restock_request', { sku: 'SKU-2001', quantity: 'fifty' }, "bad arguments: invalid literal for int() with base 10: 'fifty'"],
    ['search_products', { query: 42 }, 'bad arguments: query must be a string, got int'],
    ['get_stock_level', { sku: ['SKU-2001'] }, "bad arguments: unhashable type: 'list'"],
  ])('answers %s(%j) with bad_arguments', (name, args, message) => {
    const result = fixtureEnv().call(name, args as never);
    expect(result.errorCode).toBe('bad_arguments');
    expect(result.content).toEqual({ error: 'bad_arguments', message });
  });

  it('reports a non-string SKU the way Python formats it', () => {
    expect(fixtureEnv().call('get_stock_level', { sku: 2001 }).content).toEqual({ error: 'invalid_request', message: 'unknown SKU 2001' });
  });

  it('counts success payloads without ASCII escaping and error payloads with it', () => {
    const env = fixtureEnv();
    const ok = env.call('get_order_status', { order_id: 'ORD-3001' });
    expect(ok.isError).toBe(false);
    expect(ok.errorCode).toBeNull();
    // "Zoë" stays one character; total_usd 25.5 prints as is.
    expect(ok.payloadChars).toBe(
      '{"order_id": "ORD-3001", "customer_name": "Zoë Tester", "status": "shipped", "placed_at": "2026-01-02", "shipped_at": "2026-01-03", "delivered_at": null, "carrier": "DHL", "tracking_number": "DH1", "estimated_delivery": "2026-01-05", "items": [{"sku": "SKU-2001", "name": "Blue Widget", "quantity": 2}], "total_usd": 25.5}'
        .length,
    );
    const err = env.call('get_stock_level', { sku: 'SKÜ' });
    expect(err.payloadChars).toBe('{"error": "invalid_request", "message": "unknown SKU SK\\u00dc"}'.length);
  });
});

describe('get_stock_level (SPEC.md §7.3)', () => {
  it('returns stock, reorder point and location with keys in order', () => {
    const content = fixtureEnv().call('get_stock_level', { sku: 'SKU-2003' }).content;
    expect(Object.entries(content as object)).toEqual([
      ['sku', 'SKU-2003'],
      ['name', 'Steel Gadget'],
      ['stock_level', 3],
      ['reorder_point', 8],
      ['below_reorder_point', true],
      ['location', { aisle: 2, bin: 7 }],
      ['unit', 'each'],
      ['supplier_name', 'Acme Test Supply'],
      ['lead_time_days', 4],
    ]);
  });
});

describe('get_order_status and the legacy shard (SPEC.md §7.4)', () => {
  it('drops unit prices and the shard from the order', () => {
    const content = fixtureEnv().call('get_order_status', { order_id: 'ORD-3001' }).content as Record<string, unknown>;
    expect(Object.keys(content)).toEqual([
      'order_id', 'customer_name', 'status', 'placed_at', 'shipped_at', 'delivered_at', 'carrier',
      'tracking_number', 'estimated_delivery', 'items', 'total_usd',
    ]);
    expect(content.items).toEqual([{ sku: 'SKU-2001', name: 'Blue Widget', quantity: 2 }]);
  });

  it('hides the first legacy timeout by retrying inside the same call', () => {
    const env = fixtureEnv();
    const first = env.call('get_order_status', { order_id: 'ORD-9101' });
    expect(first.isError).toBe(false);
    expect(env.legacyAttempts('ORD-9101')).toBe(2);
    expect(env.call('get_order_status', { order_id: 'ORD-9101' }).isError).toBe(false);
    expect(env.legacyAttempts('ORD-9101')).toBe(3);
  });

  it('fails every call under naive_retry, with the attempt number growing', () => {
    const env = fixtureEnv(['naive_retry']);
    const messages = [1, 2, 3].map(() => env.call('get_order_status', { order_id: 'ORD-9101' }));
    expect(messages.map((m) => [m.errorCode, (m.content as { message: string }).message])).toEqual([1, 2, 3].map((n) => [
      'transient',
      `legacy order shard timed out looking up ORD-9101 (attempt ${n}); retry later`,
    ]));
    expect(Object.keys(messages[0]!.content as object)).toEqual(['error', 'message']);
  });

  it('counts no attempt for an unknown order and none for primary orders', () => {
    const env = fixtureEnv(['naive_retry']);
    env.call('get_order_status', { order_id: 'ORD-9999' });
    env.call('get_order_status', { order_id: 'ORD-3001' });
    expect(env.legacyAttempts('ORD-9999')).toBe(0);
    expect(env.legacyAttempts('ORD-3001')).toBe(0);
  });
});

describe('create_restock_request (SPEC.md §7.5)', () => {
  it('checks the SKU first, then converts the quantity like Python int()', () => {
    const env = fixtureEnv();
    expect(env.call('create_restock_request', { sku: 'SKU-0000', quantity: 'x' }).content).toEqual({
      error: 'invalid_request',
      message: 'unknown SKU SKU-0000',
    });
    const record = env.call('create_restock_request', { sku: 'SKU-2001', quantity: ' 20 ', priority: 'urgent' }).content;
    expect(record).toMatchObject({ request_id: 'RSR-0001', quantity: 20, priority: 'urgent', supplier_id: 'SUP-01' });
    expect(env.call('create_restock_request', { sku: 'SKU-2002', quantity: 10.9 }).content).toMatchObject({ quantity: 10 });
  });

  it('returns ledger rejections as invalid_request', () => {
    expect(fixtureEnv().call('create_restock_request', { sku: 'SKU-2001', quantity: 5 }).content).toEqual({
      error: 'invalid_request',
      message: 'rejected: the minimum restock quantity is 10 units (requested 5)',
    });
  });
});

describe('search_policy_docs (SPEC.md §7.6)', () => {
  it('returns sections with keys in order and scores rounded to 3 decimals', () => {
    const content = fixtureEnv().call('search_policy_docs', { query: 'widgets returned' }).content as Record<string, unknown>[];
    expect(content.length).toBeGreaterThan(0);
    expect(Object.keys(content[0]!)).toEqual(['chunk_id', 'document', 'section', 'title', 'score', 'text']);
    expect(content[0]!.chunk_id).toBe('b_policy.md#1');
    for (const hit of content) expect(Number((hit.score as number).toFixed(3))).toBe(hit.score);
  });

  it('defaults to three results, honours top_k and returns [] when nothing scores', () => {
    const env = fixtureEnv();
    expect(env.call('search_policy_docs', { query: 'widget widgets gadget thing' }).content).toHaveLength(3);
    expect(env.call('search_policy_docs', { query: 'widgets', top_k: 1 }).content).toHaveLength(1);
    expect(env.call('search_policy_docs', { query: 'zebra' }).content).toEqual([]);
  });
});
