/**
 * One set of scenarios over every MCP transport (in-memory, a real stdio child, a real HTTP server
 * on an ephemeral loopback port), each compared with the in-process environment.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WeaknessFlag } from '../harness/config';
import type { JsonValue } from '../harness/json';
import { pyJson } from '../harness/pyjson';
import { loadDataset } from '../stockroom/dataset/load-dataset';
import { StockroomEnvironment } from '../stockroom/environment';
import type { ToolExecutor } from '../harness/executor';
import { createExecutor } from './client/create-executor';
import { hasShared, SHARED_DATASET_DIR, warnIfMissing } from './test-support';

warnIfMissing();

const TRANSPORTS = ['mcp-memory', 'mcp-stdio', 'mcp-http'] as const;

/** Calls whose results must be identical over the wire and in process (successes and refusals). */
const PARITY_CALLS: [string, JsonValue][] = [
  ['search_products', { query: 'nitrile gloves' }],
  ['search_products', { query: 'packaging stock', max_results: 3 }],
  ['search_products', { query: 'zzz nothing matches' }],
  ['get_stock_level', { sku: 'SKU-1015' }],
  ['get_stock_level', { sku: 'SKU-9999' }],
  ['get_order_status', { order_id: 'ORD-1001' }],
  ['get_order_status', { order_id: 'ORD-9002' }],
  ['get_order_status', { order_id: 'ORD-0000' }],
  ['create_restock_request', { sku: 'SKU-1001', quantity: 5 }],
  ['create_restock_request', { sku: 'SKU-1002', quantity: 600, priority: 'urgent' }],
  ['create_restock_request', { sku: 'SKU-1002', quantity: 20 }],
  ['create_restock_request', { sku: 'SKU-1003', quantity: 9000 }],
  ['search_policy_docs', { query: 'returns window for damaged items', top_k: 2 }],
  ['no_such_tool', {}],
];

describe.skipIf(!hasShared).each(TRANSPORTS)('the Stockroom MCP server over %s', (transport) => {
  const dataset = hasShared ? loadDataset(SHARED_DATASET_DIR) : (undefined as never);
  const executors = new Map<string, ToolExecutor>();
  const executor = (weaknesses: WeaknessFlag[] = []): ToolExecutor => executors.get(weaknesses.join(','))!;
  const pj = (v: unknown) => pyJson(v, { floatKeys: dataset.floatKeys });

  beforeAll(async () => {
    for (const weaknesses of [[], ['naive_retry'], ['ambiguous_tool_desc', 'oversized_payload']] as WeaknessFlag[][]) {
      executors.set(weaknesses.join(','), await createExecutor({ transport, dataset, weaknesses }));
    }
  });
  afterAll(async () => {
    await Promise.all([...executors.values()].map((e) => e.close()));
  });

  it('labels itself with the transport', () => {
    expect(executor().transport).toBe(transport);
  });

  it.each([[[]], [['ambiguous_tool_desc', 'oversized_payload']]] as WeaknessFlag[][][])(
    'lists the five tools, reset hidden, serialising byte for byte as the local specs (flags %j)',
    async (weaknesses) => {
      const local = new StockroomEnvironment(dataset, weaknesses).listSpecs();
      const specs = await executor(weaknesses).listSpecs();
      expect(specs.map((s) => s.name)).toEqual(local.map((s) => s.name));
      expect(specs).toEqual(local);
      expect(specs.map((s) => pyJson({ toolSpec: { name: s.name, description: s.description, inputSchema: { json: s.inputSchema } } }))).toEqual(
        local.map((s) => pyJson({ toolSpec: { name: s.name, description: s.description, inputSchema: { json: s.inputSchema } } })),
      );
    },
  );

  it('returns the same results as the local environment, key order and payload size included', async () => {
    const local = new StockroomEnvironment(dataset, []);
    const remote = executor();
    await remote.reset();
    for (const [name, args] of PARITY_CALLS) {
      const want = local.call(name, args);
      const got = await remote.call(name, args);
      expect({ name, ...got }).toEqual({ name, ...want });
      expect(pj(got.content)).toBe(pj(want.content));
      expect(got.payloadChars).toBe(want.payloadChars);
    }
  });

  it('refuses arguments that break the schema on the server side', async () => {
    const cases: [string, JsonValue, string][] = [
      ['get_stock_level', { sku: 'sku-15' }, 'sku'],
      ['get_order_status', { order_id: 'ORDER-1' }, 'order_id'],
      ['create_restock_request', { sku: 'SKU-1001', quantity: 2.5 }, 'quantity'],
      ['create_restock_request', { sku: 'SKU-1001', quantity: 20, priority: 'asap' }, 'priority'],
      ['search_products', { query: '' }, 'query'],
      ['search_policy_docs', { query: 'returns', top_k: 9 }, 'top_k'],
      ['get_stock_level', { sku: 'SKU-1001', extra: 1 }, 'extra'],
    ];
    for (const [name, args, field] of cases) {
      const result = await executor().call(name, args);
      expect(result.isError, `${name} ${JSON.stringify(args)}`).toBe(true);
      expect(result.errorCode).toBe('bad_arguments');
      expect((result.content as { message: string }).message).toContain(field);
    }
  });

  it('refuses max_results when oversized_payload removed it from the schema', async () => {
    const result = await executor(['ambiguous_tool_desc', 'oversized_payload']).call('search_products', { query: 'gloves', max_results: 2 });
    expect(result.errorCode).toBe('bad_arguments');
    expect((result.content as { message: string }).message).toContain('max_results');
  });

  it('resets between runs: the same restock twice gives RSR-0001 twice', async () => {
    const args = { sku: 'SKU-1010', quantity: 25 };
    await executor().reset();
    const first = await executor().call('create_restock_request', args);
    const again = await executor().call('create_restock_request', args);
    await executor().reset();
    const afterReset = await executor().call('create_restock_request', args);
    expect((first.content as { request_id: string }).request_id).toBe('RSR-0001');
    expect(again.errorCode).toBe('invalid_request');
    expect((afterReset.content as { request_id: string }).request_id).toBe('RSR-0001');
  });

  it('hides a legacy-shard timeout inside one call by default, and returns it as transient under naive_retry', async () => {
    await executor().reset();
    const ok = await executor().call('get_order_status', { order_id: 'ORD-9001' });
    expect(ok.isError).toBe(false);
    expect((ok.content as { order_id: string }).order_id).toBe('ORD-9001');

    const flaky = executor(['naive_retry']);
    await flaky.reset();
    const first = await flaky.call('get_order_status', { order_id: 'ORD-9001' });
    const second = await flaky.call('get_order_status', { order_id: 'ORD-9001' });
    expect(first.errorCode).toBe('transient');
    expect(first.content).toEqual({
      error: 'transient',
      message: 'legacy order shard timed out looking up ORD-9001 (attempt 1); retry later',
    });
    expect((second.content as { message: string }).message).toContain('(attempt 2)');
    // The same session still serves: a primary-shard order succeeds, and reset restarts the count.
    expect((await flaky.call('get_order_status', { order_id: 'ORD-1001' })).isError).toBe(false);
    await flaky.reset();
    expect((await flaky.call('get_order_status', { order_id: 'ORD-9001' })).content).toEqual(first.content);
  });
});
