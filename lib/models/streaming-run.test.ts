/**
 * Whole runs through a streamed live model (issue 40): the record of a streamed run is the record of
 * the same run sent whole (tool calls, arguments, usage, cost, outcome, stop reasons, response
 * model), plus the measured time to first token; usage a stream did not send stays unknown and the
 * budgets still see it estimated; a recorded streamed run replays to the same record; the answer
 * so far reaches a watcher while it streams; and streaming is switched on by flag, variable and, for
 * live models, by the dashboard.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { parseArgs } from '../../cli/args';
import { configFromArgs, HARNESS_FLAGS } from '../../cli/common';
import { configFromEnv, resolveConfig } from '../harness/config';
import { isModelRetryEvent, isModelTurn, type RunResult, type TrajectoryStep } from '../harness/types';
import { createStockroomAgent } from '../stockroom/agent';
import { defaultDatasetDir, loadDataset } from '../stockroom/dataset/load-dataset';
import { loadGoldenFile } from '../eval/golden';
import { defaultGoldenPath } from '../eval/matrix';
import { configOf } from '../runs/settings';
import { liveModelFactory } from './create-model-client';
import { costMeterFor, type PriceFile } from './prices';
import { ReplayModelClient } from './recording';
import { resetBreakers } from './resilience';
import { ProviderStub, STUB_CREDENTIALS, type StubProvider, type StubReply } from './testing/stub-server';

const dataset = loadDataset(defaultDatasetDir());
const golden = loadGoldenFile(defaultGoldenPath(dataset)).cases.find((c) => c.expectedTools.length > 0)!;
const tool = golden.expectedTools[0]!;
const FAST = { retries: 2, initialDelayMs: 1, maxDelayMs: 2, timeoutMs: 10_000, random: () => 0 };
const MODEL: Record<StubProvider, string> = { openai: 'openai:gpt-priced', anthropic: 'anthropic:claude-priced', bedrock: 'bedrock:anthropic.claude-priced-v1:0' };
const PRICES: PriceFile = {
  version: 'test',
  prices: Object.values(MODEL).map((m) => ({ provider: m.split(':')[0]!, model: m.slice(m.indexOf(':') + 1), input: 2, output: 8, cached: 0.5, date: '2026-12-01', source: 'test' })),
};

/** Two parallel calls (the second a repeat under another id), then the answer, each with usage. */
const SCRIPT: StubReply[] = [
  {
    text: 'Let me look that up.',
    calls: [
      { id: 'call_1', name: tool.name, args: tool.args },
      { id: 'call_2', name: tool.name, args: tool.args },
    ],
    usage: { input: 900, output: 40, cached: 300 },
    piece: 3,
    interleave: true,
  },
  { text: 'Here is what I found about it, in full.', usage: { input: 1200, output: 25 }, piece: 2 },
];

/** The record without what was measured (latency, times, time to first token). */
const shape = (t: readonly TrajectoryStep[]) =>
  t.map((s) => ({ ...s, ...('latencyMs' in s ? { latencyMs: 0 } : {}), time: undefined, ...('timeToFirstTokenMs' in s ? { timeToFirstTokenMs: undefined } : {}) }));
const outcome = (r: RunResult) => ({ terminationReason: r.terminationReason, finalAnswer: r.finalAnswer, usage: r.usage, costEstimate: r.costEstimate, modelId: r.modelId, trajectory: shape(r.trajectory) });

describe.each(['openai', 'anthropic', 'bedrock'] as const)('%s: a streamed run', (provider) => {
  let stub: ProviderStub;
  beforeAll(async () => {
    stub = await ProviderStub.start(provider);
  });
  afterAll(() => stub.close());
  beforeEach(() => {
    stub.reset();
    resetBreakers();
  });

  const runWith = async (replies: StubReply[], stream: boolean, extra: Parameters<typeof resolveConfig>[0] = {}, onModelText?: (p: { step: number; text: string }) => void, signal?: AbortSignal) => {
    stub.enqueue(...replies);
    const config = resolveConfig({ model: MODEL[provider], modelBaseUrl: stub.baseURL, stream, ...extra });
    const liveModel = liveModelFactory(config, { env: STUB_CREDENTIALS[provider], resilience: FAST });
    const agent = await createStockroomAgent({ dataset, config, liveModel, costMeter: costMeterFor(config, PRICES) });
    try {
      return await agent.run(golden.query, golden.id, { onModelText, signal });
    } finally {
      await agent.close();
    }
  };
  const streamedRequests = () => stub.requests.filter((r) => (provider === 'bedrock' ? r.path.endsWith('/converse-stream') : (r.body as { stream?: unknown }).stream === true)).length;

  it('records the same run as the one sent whole, with the time to first token measured on each call', async () => {
    const streamed = await runWith(SCRIPT, true);
    expect(streamedRequests()).toBe(2);
    stub.reset();
    const whole = await runWith(SCRIPT, false);
    expect(streamedRequests()).toBe(0);
    expect(streamed.terminationReason).toBe('COMPLETED');
    expect(outcome(streamed)).toEqual(outcome(whole));
    expect(streamed.costEstimate.usd).toBeGreaterThan(0);
    const turns = streamed.trajectory.filter(isModelTurn);
    expect(turns[0]!.toolCalls.map((c) => c.arguments)).toEqual([tool.args, tool.args]);
    for (const t of turns) expect(t.timeToFirstTokenMs).toEqual(expect.any(Number));
    for (const t of whole.trajectory.filter(isModelTurn)) expect(t).not.toHaveProperty('timeToFirstTokenMs');
  });

  it('keeps usage a stream did not send unknown (null) and still counts it for the budgets as an estimate', async () => {
    const run = await runWith(SCRIPT.map((r) => ({ ...r, usage: null })), true);
    expect(streamedRequests()).toBe(2);
    for (const t of run.trajectory.filter(isModelTurn)) {
      expect([t.inputTokens, t.outputTokens]).toEqual([null, null]);
      expect(t.usageEstimate?.by).toMatch(/estimated/);
    }
    expect(run.usage.unreportedCalls).toBe(2);
    expect(run.costEstimate).toMatchObject({ usd: 0, unreportedCalls: 2 });
  });

  it('keeps what a cut stream had received on the retry in the trajectory, and the run goes on', async () => {
    const run = await runWith([{ kind: 'stream-fault', fault: 'cut', after: 6, text: 'A first attempt that is cut off', piece: 3 }, ...SCRIPT], true);
    expect(run.terminationReason).toBe('COMPLETED');
    const retry = run.trajectory.find(isModelRetryEvent)!;
    expect(retry).toMatchObject({ step: 1, attempt: 1, reason: 'server_error' });
    expect(retry.partial!.chars).toBeGreaterThan(0);
    expect('A first attempt that is cut off'.startsWith(retry.partial!.text)).toBe(true);
  });

  it('keeps what the last attempt had received on the MODEL_ERROR when every attempt is cut', async () => {
    const cut: StubReply = { kind: 'stream-fault', fault: 'cut', after: 6, text: 'Cut again and again', piece: 3 };
    const run = await runWith([cut, cut, cut], true);
    expect(run.terminationReason).toBe('MODEL_ERROR');
    expect(run.trajectory.filter(isModelRetryEvent)).toHaveLength(2);
    const error = run.trajectory.find((s) => s.kind === 'guard' && s.reason === 'MODEL_ERROR');
    expect(error).toMatchObject({ errorKind: 'server_error', detail: expect.stringMatching(/\[received \d+ characters in \d+ events: "Cut/) });
  });

  it('tells a watcher the answer so far while each step streams', async () => {
    const seen: { step: number; text: string }[] = [];
    const run = await runWith(SCRIPT, true, {}, (p) => seen.push(p));
    const last = seen.filter((p) => p.step === 2);
    expect(last.length).toBeGreaterThan(3);
    expect(last.at(-1)!.text).toBe(run.finalAnswer);
    // Accumulated: each is the one before plus the next piece.
    for (let i = 1; i < last.length; i++) expect(last[i]!.text.startsWith(last[i - 1]!.text)).toBe(true);
    expect(seen.filter((p) => p.step === 1).at(-1)!.text).toBe('Let me look that up.');
  });

  it('ends TIMEOUT at the wall-clock limit while a stream stalls mid-answer', async () => {
    const run = await runWith([{ kind: 'stream-fault', fault: 'stall', after: 4, text: 'Stalls after a few pieces', piece: 3 }], true, { wallClockTimeoutS: 0.5 });
    expect(run.terminationReason).toBe('TIMEOUT');
    expect(stub.requests).toHaveLength(1);
  });

  it('a Stop while the answer streams ends the run cancelled, with nothing retried', async () => {
    const controller = new AbortController();
    const run = await runWith([{ kind: 'stream-fault', fault: 'stall', after: 4, text: 'Stalls after a few pieces', piece: 3 }], true, {}, () => controller.abort(), controller.signal);
    expect(run.terminationReason).toBe('MODEL_ERROR');
    expect(run.trajectory.find((s) => s.kind === 'guard')).toMatchObject({ errorKind: 'cancelled' });
    expect(run.trajectory.some(isModelRetryEvent)).toBe(false);
    expect(stub.requests).toHaveLength(1);
  });

  it('replays a recorded streamed run to the same record, time to first token included', async () => {
    const recorded = await runWith(SCRIPT, true);
    const config = resolveConfig({ model: MODEL[provider], modelBaseUrl: stub.baseURL, stream: true });
    const model = new ReplayModelClient(recorded, { live: null, recordedMaxTokens: config.maxTokens });
    const agent = await createStockroomAgent({ dataset, config, costMeter: costMeterFor(config, PRICES) });
    const replayed = await agent.run(golden.query, golden.id, { model });
    await agent.close();
    const measured = (r: RunResult) => r.trajectory.filter(isModelTurn).map((t) => [t.latencyMs, t.timeToFirstTokenMs]);
    expect(outcome(replayed)).toEqual(outcome(recorded));
    expect(measured(replayed)).toEqual(measured(recorded));
  });
});

describe('switching streaming on', () => {
  it('reads --stream and STOCKROOM_STREAM, and refuses a bad value naming the variable', () => {
    expect(configFromArgs(parseArgs(['--stream', '--model', 'openai-compatible:m', '--model-base-url', 'http://127.0.0.1:1/v1'], HARNESS_FLAGS)).stream).toBe(true);
    expect(configFromEnv({ STOCKROOM_STREAM: '1' })).toEqual({ stream: true });
    expect(configFromEnv({ STOCKROOM_STREAM: 'false' })).toEqual({ stream: false });
    expect(() => configFromEnv({ STOCKROOM_STREAM: 'yes' })).toThrow(/STOCKROOM_STREAM must be one of 0, 1, true, false; got 'yes'/);
    expect(resolveConfig({}).stream).toBeUndefined();
  });

  it('is on for live runs started from the dashboard, and off for the fake model', () => {
    vi.stubEnv('OPENAI_API_KEY', 'sk-test');
    try {
      const settings = { guards: [], payloadWrappers: [], transport: 'local' as const };
      expect(configOf({ ...settings, model: 'openai:gpt-4o-mini' }, []).stream).toBe(true);
      expect(configOf({ ...settings, model: 'fake' }, []).stream).toBeUndefined();
    } finally {
      vi.unstubAllEnvs();
    }
  });
});
