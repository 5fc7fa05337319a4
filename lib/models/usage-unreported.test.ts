/**
 * Usage as reported, or honestly not (issue 40, part 1). Each provider's wire-level stub on 127.0.0.1
 * answers without a `usage` object, as OpenAI-compatible servers often do: the run keeps those calls'
 * tokens unknown (null), never 0 tokens and $0; the USD budget still sees them through a local count
 * marked estimated; usage reported on an answer the run could not use is kept; and the LLM guard's
 * own calls count in the run's usage, split by purpose.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { resolveConfig } from '../harness/config';
import { parseGuardrails } from '../harness/guardrails/config';
import { isGuardEvent, isModelTurn, type RunResult } from '../harness/types';
import { createStockroomAgent } from '../stockroom/agent';
import { defaultDatasetDir, loadDataset } from '../stockroom/dataset/load-dataset';
import { loadGoldenFile } from '../eval/golden';
import { defaultGoldenPath } from '../eval/matrix';
import { liveModelFactory } from './create-model-client';
import { costMeterFor, type PriceFile } from './prices';
import { resetBreakers } from './resilience';
import { ProviderStub, STUB_CREDENTIALS, type StubProvider, type StubReply } from './testing/stub-server';
import { formatAnthropic, formatBedrock, formatOpenAI } from './testing/wire-formats';
import { planRunSpans } from '../otel/run-spans';

const dataset = loadDataset(defaultDatasetDir());
/** A golden case that needs a tool: one tool call, then an answer. */
const golden = loadGoldenFile(defaultGoldenPath(dataset)).cases.find((c) => c.expectedTools.length > 0)!;
const CALL = { calls: [{ id: 'call_1', name: golden.expectedTools[0]!.name, args: golden.expectedTools[0]!.args }] };
const FAST = { retries: 0, initialDelayMs: 1, maxDelayMs: 2, timeoutMs: 5_000, random: () => 0 };
const MODEL: Record<StubProvider, { provider: string; model: string }> = {
  openai: { provider: 'openai', model: 'gpt-priced' },
  anthropic: { provider: 'anthropic', model: 'claude-priced' },
  bedrock: { provider: 'bedrock', model: 'anthropic.claude-priced-v1:0' },
};
const PRICES: PriceFile = {
  version: 'test',
  prices: Object.values(MODEL).map((m) => ({ ...m, input: 2, output: 8, cached: 0.5, date: '2026-12-01', source: 'test' })),
};

/** The body each provider sends for an answer it could not complete (no choice / no content), with usage reported. */
function unusableBody(provider: StubProvider, input: number, output: number): string {
  if (provider === 'openai') {
    // A choice without its message (an empty choices list is an empty answer: lib/models/empty-answer.test.ts).
    const body = formatOpenAI({ text: 'x', usage: { input, output } }, 'gpt-priced') as Record<string, unknown>;
    return JSON.stringify({ ...body, choices: [{ index: 0, finish_reason: 'stop' }] });
  }
  if (provider === 'anthropic') {
    const { content: _c, ...rest } = formatAnthropic({ text: 'x', usage: { input, output } }, 'claude-priced') as Record<string, unknown>;
    return JSON.stringify(rest);
  }
  const { output: _o, ...rest } = formatBedrock({ text: 'x', usage: { input, output } }) as Record<string, unknown>;
  return JSON.stringify(rest);
}

describe.each(['openai', 'anthropic', 'bedrock'] as const)('%s: usage the answer did not report', (provider) => {
  let stub: ProviderStub;
  beforeAll(async () => {
    stub = await ProviderStub.start(provider);
  });
  afterAll(() => stub.close());
  beforeEach(() => {
    stub.reset();
    resetBreakers();
  });

  const runWith = async (replies: StubReply[], extra: Partial<Parameters<typeof resolveConfig>[0]> = {}): Promise<RunResult> => {
    stub.enqueue(...replies);
    const m = MODEL[provider];
    const config = resolveConfig({ model: `${m.provider}:${m.model}`, modelBaseUrl: stub.baseURL, ...extra });
    const liveModel = liveModelFactory(config, { env: STUB_CREDENTIALS[provider], resilience: FAST });
    const agent = await createStockroomAgent({ dataset, config, liveModel, costMeter: costMeterFor(config, PRICES) });
    try {
      return await agent.run(golden.query, golden.id);
    } finally {
      await agent.close();
    }
  };
  const meter = () => costMeterFor(resolveConfig({ model: `${MODEL[provider].provider}:${MODEL[provider].model}` }), PRICES)!;

  it('keeps an answer without usage as not reported (null), never 0 tokens and $0', async () => {
    const run = await runWith([{ ...CALL, usage: null }, { text: 'Done.', usage: null }]);
    expect(run.terminationReason).toBe('COMPLETED');
    const turns = run.trajectory.filter(isModelTurn);
    expect(turns).toHaveLength(2);
    for (const t of turns) {
      expect(t.inputTokens).toBeNull();
      expect(t.outputTokens).toBeNull();
      expect(t.cachedTokens).toBeUndefined();
      // The local count is kept apart and says it is an estimate.
      expect(t.usageEstimate?.by).toMatch(/estimated/);
      expect(t.usageEstimate!.inputTokens).toBeGreaterThan(0);
    }
    expect(run.usage.perCall).toEqual([
      { inputTokens: null, outputTokens: null },
      { inputTokens: null, outputTokens: null },
    ]);
    expect(run.usage.unreportedCalls).toBe(2);
    expect(run.usage.estimatedTokens?.calls).toBe(2);
    // The cost prices what was reported (nothing here) and says how many calls were not.
    expect(run.costEstimate).toMatchObject({ usd: 0, unreportedCalls: 2 });
  });

  it('a mix keeps the reported call and marks the cost a lower bound', async () => {
    const run = await runWith([{ ...CALL, usage: { input: 400, output: 30 } }, { text: 'Done.', usage: null }]);
    expect(run.usage).toMatchObject({ inputTokens: 400, outputTokens: 30, unreportedCalls: 1 });
    expect(run.costEstimate.usd).toBeCloseTo(meter().usd({ inputTokens: 400, outputTokens: 30, cachedTokens: 0 })!, 12);
    expect(run.costEstimate.unreportedCalls).toBe(1);
  });

  it('--usd-budget counts an unreported call at its local estimate and stops the run as it would with usage', async () => {
    // Calibrate on an unlimited run: the first call's estimated cost and the second call's reserve.
    const free = await runWith([{ ...CALL, usage: null }, { text: 'Done.', usage: null }]);
    const [first, second] = free.trajectory.filter(isModelTurn);
    const maxTokens = resolveConfig({}).maxTokens;
    const spentEstimate = meter().usd({ ...first!.usageEstimate!, cachedTokens: 0 })!;
    const secondReserve = meter().usd({ inputTokens: second!.contextTokensEstimate, outputTokens: maxTokens, cachedTokens: 0 })!;
    // Room for the second call only if the first were free: an unreported call counted as $0 lets it through.
    const budget = secondReserve + spentEstimate / 2;
    stub.reset();
    const run = await runWith([{ ...CALL, usage: null }, { text: 'Done.', usage: null }], { usdBudget: budget });
    expect(run.terminationReason).toBe('COST_BUDGET');
    expect(run.trajectory.find(isGuardEvent)).toMatchObject({ guard: 'usd_budget', reason: 'COST_BUDGET' });
    expect(stub.requests).toHaveLength(1);
  });

  it('keeps the usage reported on an answer the run could not use (MODEL_ERROR bad_response)', async () => {
    const run = await runWith([{ kind: 'raw', body: unusableBody(provider, 500, 7) }]);
    expect(run.terminationReason).toBe('MODEL_ERROR');
    const error = run.trajectory.find(isGuardEvent)!;
    expect(error).toMatchObject({ errorKind: 'bad_response', inputTokens: 500, outputTokens: 7 });
    expect(run.usage).toMatchObject({ inputTokens: 500, outputTokens: 7, totalTokens: 507 });
    expect(run.costEstimate.usd).toBeCloseTo(meter().usd({ inputTokens: 500, outputTokens: 7, cachedTokens: 0 })!, 12);
  });
});

describe('the LLM guard’s own calls count in the run’s usage (OpenAI stub)', () => {
  let stub: ProviderStub;
  beforeAll(async () => {
    stub = await ProviderStub.start('openai');
  });
  afterAll(() => stub.close());
  beforeEach(() => resetBreakers());

  it('three calls billed are three calls counted, split by purpose, and priced', async () => {
    stub.enqueue(
      { ...CALL, usage: { input: 300, output: 20 } },
      { text: 'Done.', usage: { input: 400, output: 10 } },
      { text: '{"severity": "none", "reason": "keeps the policy"}', usage: { input: 120, output: 15 } },
    );
    const guardrails = parseGuardrails({ llm_guard: { policy: 'Never promise a delivery date.', on_error: 'block' }, on_violation: 'fail' });
    const config = resolveConfig({ model: 'openai:gpt-priced', modelBaseUrl: stub.baseURL, guardrails });
    const liveModel = liveModelFactory(config, { env: STUB_CREDENTIALS.openai, resilience: FAST });
    const costMeter = costMeterFor(config, PRICES)!;
    const agent = await createStockroomAgent({ dataset, config, liveModel, costMeter });
    const run = await agent.run(golden.query, golden.id);
    await agent.close();
    expect(run.terminationReason).toBe('COMPLETED');
    expect(stub.requests).toHaveLength(3);
    expect(run.usage).toMatchObject({ modelCalls: 2, inputTokens: 820, outputTokens: 45, totalTokens: 865 });
    expect(run.usage.byPurpose).toEqual({
      agent: { calls: 2, inputTokens: 700, outputTokens: 30, unreportedCalls: 0 },
      guardrail: { calls: 1, inputTokens: 120, outputTokens: 15, unreportedCalls: 0 },
    });
    expect(run.costEstimate.usd).toBeCloseTo(costMeter.usd({ inputTokens: 820, outputTokens: 45, cachedTokens: 0 })!, 12);
  });
});

describe.each(['openai', 'anthropic'] as const)('%s: the model the provider says answered (issue 40, part 2)', (provider) => {
  let stub: ProviderStub;
  beforeAll(async () => {
    stub = await ProviderStub.start(provider);
  });
  afterAll(() => stub.close());
  beforeEach(() => resetBreakers());

  it('is stored on the turn beside the requested id and exported as gen_ai.response.model', async () => {
    const answered = provider === 'openai' ? 'gpt-priced-2026-11-20' : 'claude-priced-20261120';
    const body = (reply: Parameters<typeof formatOpenAI>[0]) =>
      JSON.stringify(provider === 'openai' ? formatOpenAI(reply, answered) : formatAnthropic(reply, answered));
    stub.enqueue({ kind: 'raw', body: body(CALL) }, { kind: 'raw', body: body({ text: 'Done.' }) });
    const m = MODEL[provider];
    const config = resolveConfig({ model: `${m.provider}:${m.model}`, modelBaseUrl: stub.baseURL });
    const agent = await createStockroomAgent({ dataset, config, liveModel: liveModelFactory(config, { env: STUB_CREDENTIALS[provider], resilience: FAST }) });
    const run = await agent.run(golden.query, golden.id);
    await agent.close();
    expect(run.modelId).toBe(`${m.provider}:${m.model}`);
    expect(run.trajectory.filter(isModelTurn).map((t) => t.model)).toEqual([answered, answered]);
    const chats = planRunSpans(run, { captureContent: false }).children.filter((c) => c.attributes['gen_ai.operation.name'] === 'chat');
    expect(chats.map((c) => c.attributes['gen_ai.response.model'])).toEqual([answered, answered]);
    expect(chats.map((c) => c.attributes['gen_ai.request.model'])).toEqual([run.modelId, run.modelId]);
  });
});

describe.each(['openai', 'anthropic', 'bedrock'] as const)('%s: a body cut mid-way (issue 40, part 2)', (provider) => {
  let stub: ProviderStub;
  beforeAll(async () => {
    stub = await ProviderStub.start(provider);
  });
  afterAll(() => stub.close());
  beforeEach(() => {
    stub.reset();
    resetBreakers();
  });

  const runWith = async (retries: number, ...replies: StubReply[]) => {
    stub.enqueue(...replies);
    const m = MODEL[provider];
    const config = resolveConfig({ model: `${m.provider}:${m.model}`, modelBaseUrl: stub.baseURL });
    const agent = await createStockroomAgent({ dataset, config, liveModel: liveModelFactory(config, { env: STUB_CREDENTIALS[provider], resilience: { ...FAST, retries } }) });
    try {
      return await agent.run(golden.query, golden.id);
    } finally {
      await agent.close();
    }
  };

  it('is retried like a 5xx, and the answer that follows completes the run', async () => {
    const run = await runWith(1, { kind: 'cut', keep: 40, text: 'Done, cut short.' }, { text: 'Done.' });
    expect(run.terminationReason).toBe('COMPLETED');
    expect(stub.requests).toHaveLength(2);
    expect(run.trajectory.find((s) => s.kind === 'model_retry')).toMatchObject({ attempt: 1, reason: 'server_error' });
  });

  it('with its retries spent ends MODEL_ERROR server_error naming the cut, not bad_response', async () => {
    const run = await runWith(0, { kind: 'cut', keep: 40, text: 'Done, cut short.' });
    expect(run.terminationReason).toBe('MODEL_ERROR');
    expect(run.trajectory.find(isGuardEvent)).toMatchObject({ errorKind: 'server_error' });
    expect(run.trajectory.find(isGuardEvent)!.detail).toMatch(/cut mid-body/);
  });
});
