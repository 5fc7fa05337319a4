/**
 * Usage and cost as each provider bills them (issue 22, part 2). Each stub on 127.0.0.1 answers with a
 * response body in its provider's own wire format (testing/wire-responses): a prompt of which part was
 * read from and part written to the prompt cache. The stored usage must hold the whole prompt, and the
 * cost price each part at its own rate from config/prices.json.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { resolveConfig } from '../harness/config';
import { createStockroomAgent } from '../stockroom/agent';
import { defaultDatasetDir, loadDataset } from '../stockroom/dataset/load-dataset';
import { liveModelFactory } from './create-model-client';
import { costMeterFor, priceFor } from './prices';
import { resetBreakers } from './resilience';
import { ProviderStub, type StubProvider } from './testing/stub-server';

const dataset = loadDataset(defaultDatasetDir());
const wire = (name: string) => readFileSync(path.join(__dirname, 'testing/wire-responses', name), 'utf8');

interface Case {
  provider: StubProvider;
  model: string;
  file: string;
  env: Record<string, string>;
  /** The provider's own counts in the body: the prompt's uncached rest, cache reads, cache writes, output. */
  counts: (body: Record<string, never>) => { rest: number; read: number; write: number; output: number };
}

const CASES: Case[] = [
  {
    provider: 'bedrock',
    model: 'bedrock:anthropic.claude-3-5-haiku-20241022-v1:0',
    file: 'bedrock-converse-cache.json',
    env: { AWS_REGION: 'us-east-1', AWS_ACCESS_KEY_ID: 'AKIAFAKE', AWS_SECRET_ACCESS_KEY: 'x' },
    counts: (b: { usage: { inputTokens: number; cacheReadInputTokens: number; cacheWriteInputTokens: number; outputTokens: number } }) => ({
      rest: b.usage.inputTokens,
      read: b.usage.cacheReadInputTokens,
      write: b.usage.cacheWriteInputTokens,
      output: b.usage.outputTokens,
    }),
  } as unknown as Case,
  {
    provider: 'anthropic',
    model: 'anthropic:claude-3-5-haiku-20241022',
    file: 'anthropic-messages-cache.json',
    env: { ANTHROPIC_API_KEY: 'sk-ant-test' },
    counts: (b: { usage: { input_tokens: number; cache_read_input_tokens: number; cache_creation_input_tokens: number; output_tokens: number } }) => ({
      rest: b.usage.input_tokens,
      read: b.usage.cache_read_input_tokens,
      write: b.usage.cache_creation_input_tokens,
      output: b.usage.output_tokens,
    }),
  } as unknown as Case,
  {
    provider: 'openai',
    model: 'openai:gpt-4o-mini',
    file: 'openai-chat-cache.json',
    env: { OPENAI_API_KEY: 'sk-test' },
    counts: (b: { usage: { prompt_tokens: number; prompt_tokens_details: { cached_tokens: number }; completion_tokens: number } }) => ({
      rest: b.usage.prompt_tokens - b.usage.prompt_tokens_details.cached_tokens,
      read: b.usage.prompt_tokens_details.cached_tokens,
      write: 0,
      output: b.usage.completion_tokens,
    }),
  } as unknown as Case,
];

describe.each(CASES)('$provider: a cached prompt', ({ provider, model, file, env, counts }) => {
  let stub: ProviderStub;
  beforeAll(async () => {
    stub = await ProviderStub.start(provider);
  });
  afterAll(() => stub.close());
  beforeEach(() => {
    stub.reset();
    resetBreakers();
  });

  it('is stored as the whole prompt sent (cache reads and writes included) and priced part by part', async () => {
    const body = wire(file);
    const c = counts(JSON.parse(body));
    stub.enqueue({ kind: 'raw', body });
    const config = resolveConfig({ model, modelBaseUrl: stub.baseURL });
    const agent = await createStockroomAgent({
      dataset,
      config,
      liveModel: liveModelFactory(config, { env, resilience: { retries: 0 } }),
      costMeter: costMeterFor(config),
    });
    const run = await agent.run('How many SKU-1001 are in stock?');
    await agent.close();

    const prompt = c.rest + c.read + c.write;
    expect(run.usage).toMatchObject({ inputTokens: prompt, outputTokens: c.output, cachedTokens: c.read });
    expect(run.usage.cacheWriteTokens ?? 0).toBe(c.write);
    expect(run.usage.perCall).toEqual([{ inputTokens: prompt, outputTokens: c.output, cachedTokens: c.read, ...(c.write > 0 ? { cacheWriteTokens: c.write } : {}) }]);

    const price = priceFor(model)!;
    if (c.write > 0) expect(price.cache_write).toBeGreaterThan(price.input);
    const expected = (c.rest * price.input + c.read * price.cached + c.write * (price.cache_write ?? price.input) + c.output * price.output) / 1e6;
    expect(run.costEstimate.usd).toBeCloseTo(expected, 12);
  });
});

describe('the usd budget counts cache writes (Bedrock)', () => {
  let stub: ProviderStub;
  beforeAll(async () => {
    stub = await ProviderStub.start('bedrock');
  });
  afterAll(() => stub.close());

  it('stops with COST_BUDGET once the billed spend (cache writes included) reaches the budget', async () => {
    resetBreakers();
    const model = 'bedrock:anthropic.claude-3-5-haiku-20241022-v1:0';
    const price = priceFor(model)!;
    // The first call writes a large prompt to the cache: billed far above its uncached rest.
    const usage = { input: 100 + 50_000, output: 10, cacheWrite: 50_000 };
    const billed = (100 * price.input + 50_000 * price.cache_write! + 10 * price.output) / 1e6;
    // Above what the first call may cost before it is made, below what it billed.
    const budget = billed / 5;
    stub.enqueue({ calls: [{ id: 'c1', name: 'get_stock_level', args: { sku: 'SKU-1001' } }], usage }, { text: 'done' });
    // A token budget the cached prompt fits in, so the money is what stops the run.
    const config = resolveConfig({ model, modelBaseUrl: stub.baseURL, usdBudget: budget, tokenBudget: 1_000_000 });
    const agent = await createStockroomAgent({
      dataset,
      config,
      liveModel: liveModelFactory(config, { env: CASES[0]!.env, resilience: { retries: 0 } }),
      costMeter: costMeterFor(config),
    });
    const run = await agent.run('How many SKU-1001 are in stock?');
    await agent.close();
    expect(run.usage.modelCalls).toBe(1);
    expect(run.terminationReason).toBe('COST_BUDGET');
    expect(run.costEstimate.usd).toBeCloseTo(billed, 12);
  });
});
