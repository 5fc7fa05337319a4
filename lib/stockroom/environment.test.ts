import { afterAll, describe, expect, it } from 'vitest';
import { loadDataset } from './dataset/load-dataset';
import { StockroomEnvironment } from './environment';
import { LocalToolExecutor } from './executor/local-executor';
import { removeFixtureDatasets, writeFixtureDataset } from './testing/fixture-dataset';

afterAll(() => removeFixtureDatasets());

let dir: string | undefined;
const dataset = () => loadDataset((dir ??= writeFixtureDataset()));

describe('StockroomEnvironment', () => {
  it('returns the same frozen spec array on every call', () => {
    const env = new StockroomEnvironment(dataset(), []);
    expect(env.listSpecs()).toBe(env.listSpecs());
    expect(env.listSpecs().map((s) => s.name)).toEqual([
      'search_products', 'get_stock_level', 'get_order_status', 'create_restock_request', 'search_policy_docs',
    ]);
    expect(Object.isFrozen(env.listSpecs())).toBe(true);
  });

  it('keeps its weakness flags and drops max_results under oversized_payload', () => {
    const env = new StockroomEnvironment(dataset(), ['oversized_payload']);
    expect(env.weaknesses).toEqual(['oversized_payload']);
    expect(Object.keys((env.listSpecs()[0]!.inputSchema as { properties: object }).properties)).toEqual(['query']);
  });

  it('reset empties the ledger and clears the legacy-shard counters', () => {
    const env = new StockroomEnvironment(dataset(), []);
    env.call('create_restock_request', { sku: 'SKU-2001', quantity: 20 });
    env.call('get_order_status', { order_id: 'ORD-9101' });
    expect(env.ledger.records()).toHaveLength(1);
    env.reset();
    expect(env.ledger.records()).toEqual([]);
    expect(env.legacyAttempts('ORD-9101')).toBe(0);
    expect(env.call('create_restock_request', { sku: 'SKU-2001', quantity: 20 }).content).toMatchObject({ request_id: 'RSR-0001' });
  });

  it('makes a restock idempotent under an operation key passed in the call context', () => {
    const env = new StockroomEnvironment(dataset(), []);
    const first = env.call('create_restock_request', { sku: 'SKU-2001', quantity: 20 }, { operationKey: 'k1' });
    const retry = env.call('create_restock_request', { sku: 'SKU-2001', quantity: 20 }, { operationKey: 'k1' });
    expect(retry).toEqual(first);
    expect(env.ledger.records()).toHaveLength(1);
    const other = env.call('create_restock_request', { sku: 'SKU-2001', quantity: 20 });
    expect(other.content).toMatchObject({ error: 'invalid_request' });
  });

  it('keeps separate state per environment over the same dataset', () => {
    const a = new StockroomEnvironment(dataset(), []);
    const b = new StockroomEnvironment(dataset(), []);
    a.call('create_restock_request', { sku: 'SKU-2001', quantity: 20 });
    expect(b.ledger.records()).toEqual([]);
  });
});

describe('LocalToolExecutor', () => {
  it('wraps the environment behind the async executor seam', async () => {
    const env = new StockroomEnvironment(dataset(), []);
    const executor = new LocalToolExecutor(env);
    expect(executor.transport).toBe('local');
    expect(await executor.listSpecs()).toBe(env.listSpecs());
    const result = await executor.call('get_stock_level', { sku: 'SKU-2001' });
    expect(result.content).toMatchObject({ sku: 'SKU-2001', stock_level: 40 });
    await executor.call('create_restock_request', { sku: 'SKU-2001', quantity: 20 });
    await executor.reset();
    expect(env.ledger.records()).toEqual([]);
    await expect(executor.close()).resolves.toBeUndefined();
  });
});
