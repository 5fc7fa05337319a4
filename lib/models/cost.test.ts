import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { resolveConfig } from '../harness/config';
import { ConfigError } from '../harness/errors';
import { isGuardEvent } from '../harness/types';
import { aggregate } from '../eval/aggregate';
import { evaluateCase } from '../eval/case-scores';
import { loadGoldenFile } from '../eval/golden';
import { defaultGoldenPath } from '../eval/matrix';
import { createStockroomAgent } from '../stockroom/agent';
import { defaultDatasetDir, loadDataset } from '../stockroom/dataset/load-dataset';
import { liveModelFactory } from './create-model-client';
import { costMeterFor, loadPrices, PriceFileSchema, usdAt, type PriceFile } from './prices';
import { resetBreakers } from './resilience';
import { ProviderStub } from './testing/stub-server';

const dataset = loadDataset(defaultDatasetDir());
const PRICES: PriceFile = {
  version: 'test',
  prices: [{ provider: 'openai', model: 'priced', input: 2, output: 8, cached: 0.5, date: '2026-12-01', source: 'test' }],
};

describe('prices', () => {
  it('the shipped config/prices.json is valid and dated per entry', () => {
    const file = loadPrices();
    expect(PriceFileSchema.safeParse(file).success).toBe(true);
    expect(file.prices.length).toBeGreaterThan(0);
  });

  it('prices cached prompt tokens at the cached rate and the rest at the input rate', () => {
    const price = PRICES.prices[0]!;
    expect(usdAt(price, { inputTokens: 1_000_000, outputTokens: 0, cachedTokens: 0 })).toBe(2);
    expect(usdAt(price, { inputTokens: 1_000_000, outputTokens: 1_000_000, cachedTokens: 1_000_000 })).toBe(8.5);
  });

  it('a model without a price has an unknown cost, and a USD budget for it is refused naming STOCKROOM_USD_BUDGET', () => {
    const meter = costMeterFor(resolveConfig({ model: 'openai:unpriced' }), PRICES)!;
    expect(meter.usd({ inputTokens: 10, outputTokens: 10, cachedTokens: 0 })).toBeNull();
    let err: unknown;
    try {
      costMeterFor(resolveConfig({ model: 'openai:unpriced', usdBudget: 1 }), PRICES);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).key).toBe('STOCKROOM_USD_BUDGET');
  });
});

describe('usage and cost of live runs (OpenAI stub)', () => {
  let stub: ProviderStub;
  beforeAll(async () => {
    stub = await ProviderStub.start('openai');
  });
  afterAll(() => stub.close());
  beforeEach(() => {
    stub.reset();
    resetBreakers();
  });

  const agentFor = async (model: string, extra: Partial<Parameters<typeof resolveConfig>[0]> = {}) => {
    const config = resolveConfig({ model, modelBaseUrl: stub.baseURL, ...extra });
    const liveModel = liveModelFactory(config, { env: { OPENAI_API_KEY: 'sk-test' }, resilience: { retries: 0 } });
    return createStockroomAgent({ dataset, config, liveModel, costMeter: costMeterFor(config, PRICES) });
  };

  it('stores the provider’s input, output and cached tokens and prices them (it was always $0 with cost_known true)', async () => {
    stub.enqueue(
      { calls: [{ id: 'c1', name: 'get_stock_level', args: { sku: 'SKU-1001' } }], usage: { input: 1000, output: 100, cached: 400 } },
      { text: 'done', usage: { input: 2000, output: 50, cached: 1000 } },
    );
    const agent = await agentFor('openai:priced');
    const run = await agent.run('How many SKU-1001?');
    await agent.close();
    expect(run.usage).toMatchObject({ inputTokens: 3000, outputTokens: 150, cachedTokens: 1400 });
    expect(run.usage.perCall).toEqual([
      { inputTokens: 1000, outputTokens: 100, cachedTokens: 400 },
      { inputTokens: 2000, outputTokens: 50, cachedTokens: 1000 },
    ]);
    // (1600 × $2 + 1400 × $0.5 + 150 × $8) / 1M
    expect(run.costEstimate.usd).toBeCloseTo((1600 * 2 + 1400 * 0.5 + 150 * 8) / 1e6, 12);
    expect(run.costEstimate.known).toBeUndefined();
  });

  it('marks the cost unknown for an unpriced model, and the suite’s cost_known turns false', async () => {
    stub.enqueue({ text: 'done' });
    const agent = await agentFor('openai:unpriced');
    const run = await agent.run('hi');
    await agent.close();
    expect(run.costEstimate).toMatchObject({ usd: null, known: false });
    const golden = loadGoldenFile(defaultGoldenPath(dataset)).cases[0]!;
    const scores = await evaluateCase(golden, run, { judge: null });
    expect(scores.costUsd).toBeNull();
    expect(aggregate([scores]).metrics.cost_known).toBe(false);
    // The suite's total is unknown too, never the sum of the priced cases (here $0).
    expect(aggregate([scores]).metrics.total_cost_usd).toBeNull();
  });

  it('the token budget counts the provider’s real usage before the next call', async () => {
    stub.enqueue({ calls: [{ id: 'c1', name: 'get_stock_level', args: { sku: 'SKU-1001' } }], usage: { input: 19_500, output: 10 } });
    const agent = await agentFor('openai:priced');
    const run = await agent.run('How many SKU-1001?');
    await agent.close();
    expect(run.terminationReason).toBe('TOKEN_BUDGET');
    expect(stub.requests).toHaveLength(1);
  });

  it('--usd-budget stops a run before the call that could exceed it', async () => {
    stub.enqueue({ calls: [{ id: 'c1', name: 'get_stock_level', args: { sku: 'SKU-1001' } }], usage: { input: 4000, output: 200 } });
    // First call: ~$0.0017 input estimate + $0.0082 output reserve fits $0.012; after spending $0.0096 the next cannot.
    const agent = await agentFor('openai:priced', { usdBudget: 0.012 });
    const run = await agent.run('How many SKU-1001?');
    await agent.close();
    expect(run.terminationReason).toBe('COST_BUDGET');
    expect(run.trajectory.find(isGuardEvent)).toMatchObject({ guard: 'usd_budget', reason: 'COST_BUDGET' });
    expect(stub.requests).toHaveLength(1);
  });
});
