import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { resolveConfig } from '../harness/config';
import { ConfigError } from '../harness/errors';
import { isGuardEvent, isModelRetryEvent, isModelTurn, isToolRecord } from '../harness/types';
import { createStockroomAgent } from '../stockroom/agent';
import { defaultDatasetDir, loadDataset } from '../stockroom/dataset/load-dataset';
import { liveModelFactory } from './create-model-client';
import { resetBreakers } from './resilience';
import { ProviderStub } from './testing/stub-server';

const dataset = loadDataset(defaultDatasetDir());
const FAST = { retries: 1, initialDelayMs: 1, maxDelayMs: 2, timeoutMs: 5_000, random: () => 0 };

describe('choosing a live model', () => {
  it.each([
    ['openai:gpt-4o-mini', {}, 'OPENAI_API_KEY'],
    ['anthropic:claude-x', {}, 'ANTHROPIC_API_KEY'],
    ['bedrock:anthropic.claude-x', {}, 'AWS_REGION'],
    ['bedrock:anthropic.claude-x', { AWS_REGION: 'us-east-1' }, 'AWS_ACCESS_KEY_ID'],
  ])('refuses %s before anything runs when %j lacks %s', (model, env, variable) => {
    const config = resolveConfig({ model });
    let err: unknown;
    try {
      liveModelFactory(config, { env });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).key).toBe(variable);
    expect((err as ConfigError).message).toContain(variable);
  });

  it('returns no factory for the fake model, and needs no key for openai-compatible', () => {
    expect(liveModelFactory(resolveConfig({}), { env: {} })).toBeNull();
    expect(liveModelFactory(resolveConfig({ model: 'openai-compatible:m', modelBaseUrl: 'http://127.0.0.1:1/v1' }), { env: {} })).not.toBeNull();
  });
});

describe('a run through a live model (OpenAI stub)', () => {
  let stub: ProviderStub;
  beforeAll(async () => {
    stub = await ProviderStub.start('openai');
  });
  afterAll(() => stub.close());
  beforeEach(() => {
    stub.reset();
    resetBreakers();
  });

  const agentFor = async () => {
    const config = resolveConfig({ model: 'openai:gpt-test', modelBaseUrl: stub.baseURL });
    const liveModel = liveModelFactory(config, { env: { OPENAI_API_KEY: 'sk-test' }, resilience: FAST });
    return createStockroomAgent({ dataset, config, liveModel });
  };

  it('records the model it really used, and turns malformed tool arguments into an invalid_arguments result the model then corrects', async () => {
    stub.enqueue(
      { calls: [{ id: 'call_1', name: 'get_stock_level', args: { raw: '{"sku": "SKU-1001"' } }], usage: { input: 500, output: 12 } },
      { calls: [{ id: 'call_2', name: 'get_stock_level', args: { sku: 'SKU-1001' } }], usage: { input: 600, output: 10 } },
      { text: 'There are some units.', usage: { input: 700, output: 8 } },
    );
    const agent = await agentFor();
    const run = await agent.run('How many SKU-1001 are in stock?');
    await agent.close();
    expect(run).toMatchObject({ modelId: 'openai:gpt-test', mode: 'live', terminationReason: 'COMPLETED', finalAnswer: 'There are some units.' });
    const calls = run.trajectory.filter(isToolRecord);
    expect(calls[0]).toMatchObject({ toolUseId: 'call_1', errorCode: 'invalid_arguments', executed: false });
    expect(calls[1]).toMatchObject({ toolUseId: 'call_2', executed: true, validationError: null });
    // The provider's own counts, not an estimate.
    expect(run.usage.perCall).toEqual([
      { inputTokens: 500, outputTokens: 12, cachedTokens: 0 },
      { inputTokens: 600, outputTokens: 10, cachedTokens: 0 },
      { inputTokens: 700, outputTokens: 8, cachedTokens: 0 },
    ]);
    expect(run.trajectory.filter(isModelTurn)[0]).toMatchObject({ provider: 'openai', finishReason: 'tool_calls' });
    // The second request carried the invalid_arguments result back under the model's own call id.
    const sent = (stub.requests[1]?.body as { messages: { role: string; tool_call_id?: string; content: string }[] }).messages;
    const result = sent.find((m) => m.role === 'tool' && m.tool_call_id === 'call_1');
    expect(JSON.parse(result!.content)).toMatchObject({ error: 'invalid_arguments', message: 'arguments must be a JSON object, got str' });
  });

  it('ends in MODEL_ERROR with a typed reason when retries run out, keeping the trajectory and each retry', async () => {
    stub.enqueue(
      { calls: [{ id: 'call_1', name: 'get_stock_level', args: { sku: 'SKU-1001' } }] },
      { kind: 'error', status: 429, headers: { 'retry-after': '0' } },
      { kind: 'error', status: 429, headers: { 'retry-after': '0' } },
    );
    const agent = await agentFor();
    const run = await agent.run('How many SKU-1001 are in stock?');
    await agent.close();
    expect(run.terminationReason).toBe('MODEL_ERROR');
    expect(run.trajectory.map((s) => s.kind)).toEqual(['model_turn', 'tool_call', 'model_retry', 'guard']);
    expect(run.trajectory.find(isModelRetryEvent)).toMatchObject({ step: 2, attempt: 1, reason: 'throttled', delayMs: 0 });
    expect(run.trajectory.find(isGuardEvent)).toMatchObject({ reason: 'MODEL_ERROR', errorKind: 'throttled' });
    expect(run.finalAnswer).toMatch(/throttled/);
  });

  it('is cancelled cleanly by its signal while a call is in flight', async () => {
    stub.enqueue({ kind: 'hang' });
    const agent = await agentFor();
    const controller = new AbortController();
    const pending = agent.run('How many SKU-1001 are in stock?', null, { signal: controller.signal });
    await vi.waitFor(() => expect(stub.requests).toHaveLength(1));
    controller.abort();
    const run = await pending;
    await agent.close();
    expect(run.terminationReason).toBe('MODEL_ERROR');
    expect(run.trajectory.find(isGuardEvent)).toMatchObject({ errorKind: 'cancelled' });
  });
});

describe('openai-compatible request metadata (issue 22 §6)', () => {
  let stub: ProviderStub;
  beforeAll(async () => {
    stub = await ProviderStub.start('openai');
  });
  afterAll(() => stub.close());

  const sent = async (model: string) => {
    stub.reset();
    resetBreakers();
    const config = resolveConfig({ model, modelBaseUrl: stub.baseURL });
    const client = liveModelFactory(config, { env: {}, resilience: FAST })!({ caseId: 'G007', weaknesses: ['naive_retry'] });
    await client.converse({ system: 's', messages: [{ role: 'user', content: [{ text: 'hi' }] }], tools: [], maxTokens: 16 });
    return stub.requests[0]!.body as Record<string, unknown>;
  };

  it('never tells a third party’s server the case id or the flags', async () => {
    const body = await sent('openai-compatible:llama-3.1-8b-instruct');
    expect(body).not.toHaveProperty('metadata');
    expect(JSON.stringify(body)).not.toContain('G007');
    expect(JSON.stringify(body)).not.toContain('naive_retry');
  });

  it('tells the project’s own model server (its model stockroom-fake) both', async () => {
    expect(await sent('openai-compatible:stockroom-fake')).toMatchObject({ metadata: { stockroom_case_id: 'G007', stockroom_weaknesses: 'naive_retry' } });
  });
});
