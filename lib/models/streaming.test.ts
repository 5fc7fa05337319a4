/**
 * Streaming on every provider (issue 40), over HTTP against stubs that speak each provider's own
 * streaming wire: SSE chunks (OpenAI), SSE message events (Anthropic), AWS event-stream frames
 * (Bedrock ConverseStream). A streamed answer must map to the same response as the same answer sent
 * whole; what differs is only what streaming adds: the time to the first token, the pieces as they
 * arrive, and faults that only a stream has.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ModelClient, ModelRetryNotice } from '../harness/model/client';
import type { ModelResponse, ToolSpec } from '../harness/types';
import { AnthropicModelClient } from './anthropic-client';
import { BedrockModelClient } from './bedrock-client';
import { ProviderCallError } from './errors';
import { OpenAIModelClient } from './openai-client';
import { resetBreakers, ResilientModelClient, type ResilienceOptions } from './resilience';
import { ProviderStub, type StubProvider, type StubReply } from './testing/stub-server';
import type { StubTurn } from './testing/wire-formats';

const TOOLS: ToolSpec[] = [{ name: 'get_stock_level', description: 'stock of one SKU', inputSchema: { type: 'object', properties: { sku: { type: 'string' } } } }];
const FAST: Partial<ResilienceOptions> = { retries: 2, initialDelayMs: 1, maxDelayMs: 2, timeoutMs: 10_000, breakerThreshold: 50, random: () => 0.5 };

let seq = 0;
function clientFor(stub: ProviderStub, stream: boolean, model = `m${++seq}`): ModelClient {
  switch (stub.provider) {
    case 'openai':
      return new OpenAIModelClient({ provider: 'openai', model, apiKey: 'sk-test', baseURL: stub.baseURL, stream });
    case 'anthropic':
      return new AnthropicModelClient({ model, apiKey: 'sk-ant-test', baseURL: stub.baseURL, stream });
    case 'bedrock':
      return new BedrockModelClient({ model, region: 'us-east-1', endpoint: stub.baseURL, credentials: { accessKeyId: 'AKIAFAKE', secretAccessKey: 'x' }, stream });
  }
}

/** Whether request `i` the stub saw asked for a stream (so a test of streaming cannot pass on a whole answer). */
const streamedRequest = (stub: ProviderStub, i: number) => {
  const r = stub.requests[i]!;
  if (stub.provider === 'bedrock') return r.path.endsWith('/converse-stream');
  return typeof r.body === 'object' && r.body !== null && !Array.isArray(r.body) && r.body.stream === true;
};

/** Everything of a response that is the record (not what was measured, not the provider's body). */
const record = (r: ModelResponse) => {
  const { latencyMs: _l, timeToFirstTokenMs: _t, raw: _r, ...rest } = r;
  return rest;
};

const PARALLEL: StubTurn = {
  text: 'Checking both SKUs now, one moment.',
  calls: [
    { id: 'call_a', name: 'get_stock_level', args: { sku: 'SKU-1001', note: 'first of two' } },
    { id: 'call_b', name: 'get_stock_level', args: { sku: 'SKU-1002', note: 'second of two' } },
  ],
  usage: { input: 321, output: 45, cached: 100, cacheWrite: 20 },
};

describe.each(['openai', 'anthropic', 'bedrock'] as const)('%s streamed against its wire-level stub', (provider: StubProvider) => {
  let stub: ProviderStub;
  beforeAll(async () => {
    stub = await ProviderStub.start(provider);
  });
  afterAll(() => stub.close());
  beforeEach(() => {
    stub.reset();
    resetBreakers();
  });

  const ask = (c: ModelClient, extra: { onRetry?: (n: ModelRetryNotice) => void; onDelta?: (d: { text: string }) => void; signal?: AbortSignal } = {}) =>
    c.converse({ system: 'You are a stock clerk.', messages: [{ role: 'user', content: [{ text: 'How many SKU-1001 and SKU-1002?' }] }], tools: TOOLS, maxTokens: 256, ...extra });

  it('asks for a stream on the wire (stream: true with the usage chunk, or the ConverseStream path)', async () => {
    stub.enqueue({ text: 'Done.' });
    await ask(clientFor(stub, true));
    const sent = stub.requests[0]!;
    if (provider === 'bedrock') expect(sent.path).toMatch(/\/converse-stream$/);
    else expect(sent.body).toMatchObject({ stream: true });
    if (provider === 'openai') expect(sent.body).toMatchObject({ stream_options: { include_usage: true } });
  });

  it('maps a streamed answer with parallel tool calls, their arguments in 3-character pieces, to the same response as the whole one', async () => {
    stub.enqueue({ ...PARALLEL, piece: 3 }, PARALLEL);
    const streamed = await ask(clientFor(stub, true, 'same-model'));
    const whole = await ask(clientFor(stub, false, 'same-model'));
    expect([streamedRequest(stub, 0), streamedRequest(stub, 1)]).toEqual([true, false]);
    expect(record(streamed)).toEqual(record(whole));
    expect(streamed.toolCalls.map((c) => c.arguments)).toEqual([
      { sku: 'SKU-1001', note: 'first of two' },
      { sku: 'SKU-1002', note: 'second of two' },
    ]);
    expect(streamed).toMatchObject({ text: PARALLEL.text, stopReason: 'tool_use', inputTokens: 321, outputTokens: 45, cachedTokens: 100 });
  });

  it('keeps malformed tool input as the string the model wrote, as the whole answer does', async () => {
    const turn: StubTurn = { calls: [{ id: 'call_x', name: 'get_stock_level', args: { raw: '{"sku": "SKU-1' } }] };
    stub.enqueue({ ...turn, piece: 2 }, turn);
    const streamed = await ask(clientFor(stub, true, 'same'));
    const whole = await ask(clientFor(stub, false, 'same'));
    expect(streamedRequest(stub, 0)).toBe(true);
    expect(streamed.toolCalls[0]?.arguments).toBe('{"sku": "SKU-1');
    expect(record(streamed)).toEqual(record(whole));
  });

  it('measures the time to the first token of a streamed call, and has none for a call sent whole', async () => {
    stub.enqueue({ text: 'Fourteen units.' }, { text: 'Fourteen units.' });
    const streamed = await ask(clientFor(stub, true));
    const whole = await ask(clientFor(stub, false));
    expect(streamed.timeToFirstTokenMs).toEqual(expect.any(Number));
    expect(streamed.timeToFirstTokenMs!).toBeGreaterThan(0);
    expect(streamed.timeToFirstTokenMs!).toBeLessThanOrEqual(streamed.latencyMs);
    expect(whole.timeToFirstTokenMs).toBeUndefined();
  });

  it('hands each text piece to onDelta as it arrives', async () => {
    stub.enqueue({ text: 'There are 14 units of SKU-1001.', piece: 5 });
    const pieces: string[] = [];
    const r = await ask(clientFor(stub, true), { onDelta: (d) => pieces.push(d.text) });
    expect(pieces.length).toBeGreaterThan(3);
    expect(pieces.join('')).toBe(r.text);
  });

  it('retries a stream cut mid-body like a 5xx, keeping what the failed attempt had received on its retry notice', async () => {
    stub.enqueue({ kind: 'stream-fault', fault: 'cut', after: 5, text: 'Partial answer that is cut', piece: 4 }, { text: 'The whole answer.' });
    const notices: ModelRetryNotice[] = [];
    const r = await ask(new ResilientModelClient(clientFor(stub, true), FAST), { onRetry: (n) => notices.push(n) });
    expect(r.text).toBe('The whole answer.');
    expect(stub.requests).toHaveLength(2);
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({ attempt: 1, reason: 'server_error' });
    expect(notices[0]!.partial!.text.length).toBeGreaterThan(0);
    expect('Partial answer that is cut'.startsWith(notices[0]!.partial!.text)).toBe(true);
    expect(notices[0]!.detail).toContain(JSON.stringify(notices[0]!.partial!.text));
  });

  it('retries a stream that ends cleanly before its final event, keeping what had arrived', async () => {
    stub.enqueue({ kind: 'stream-fault', fault: 'end', after: 4, text: 'Half an answ', piece: 4 }, { text: 'The whole answer.' });
    const notices: ModelRetryNotice[] = [];
    const r = await ask(new ResilientModelClient(clientFor(stub, true), FAST), { onRetry: (n) => notices.push(n) });
    expect(r.text).toBe('The whole answer.');
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({ reason: 'server_error', detail: expect.stringContaining('ended before its final event') });
    expect(notices[0]!.partial).toMatchObject({ text: expect.stringMatching(/^Half/) });
  });

  it('retries a stream that reports the provider’s own error part-way (an error chunk, overloaded_error, a stream exception)', async () => {
    stub.enqueue({ kind: 'stream-fault', fault: 'error', after: 4, text: 'Goes wrong part-way', piece: 4 }, { text: 'The whole answer.' });
    const notices: ModelRetryNotice[] = [];
    const r = await ask(new ResilientModelClient(clientFor(stub, true), FAST), { onRetry: (n) => notices.push(n) });
    expect(r.text).toBe('The whole answer.');
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({ reason: 'server_error' });
    expect(notices[0]!.partial?.text).toMatch(/^Goes/);
  });

  it('ends a stalled stream when the signal is aborted: cancelled, not retried', async () => {
    stub.enqueue({ kind: 'stream-fault', fault: 'stall', after: 4, text: 'Stalling after this', piece: 4 });
    const controller = new AbortController();
    const err = await ask(new ResilientModelClient(clientFor(stub, true), FAST), { signal: controller.signal, onDelta: () => controller.abort() }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ProviderCallError);
    expect((err as ProviderCallError).kind).toBe('cancelled');
    expect(stub.requests).toHaveLength(1);
  });

  it('times out a stalled stream by the per-attempt deadline and retries it', async () => {
    stub.enqueue({ kind: 'stream-fault', fault: 'stall', after: 4, text: 'Stalling after this', piece: 4 }, { text: 'Second try.' });
    const notices: ModelRetryNotice[] = [];
    const r = await ask(new ResilientModelClient(clientFor(stub, true), { ...FAST, timeoutMs: 300 }), { onRetry: (n) => notices.push(n) });
    expect(r.text).toBe('Second try.');
    expect(notices[0]).toMatchObject({ reason: 'timeout' });
  });
});

describe('OpenAI streaming specifics', () => {
  let stub: ProviderStub;
  beforeAll(async () => {
    stub = await ProviderStub.start('openai');
  });
  afterAll(() => stub.close());
  beforeEach(() => stub.reset());

  const ask = (c: ModelClient) => c.converse({ system: 's', messages: [{ role: 'user', content: [{ text: 'q' }] }], tools: TOOLS, maxTokens: 64 });

  it('assembles parallel tool calls whose deltas arrive interleaved by index', async () => {
    const reply: StubReply = { ...PARALLEL, piece: 2, interleave: true };
    stub.enqueue(reply, PARALLEL);
    const streamed = await ask(clientFor(stub, true, 'same'));
    const whole = await ask(clientFor(stub, false, 'same'));
    expect(streamedRequest(stub, 0)).toBe(true);
    expect(record(streamed)).toEqual(record(whole));
    expect(streamed.toolCalls.map((c) => c.toolUseId)).toEqual(['call_a', 'call_b']);
  });

  it('records usage as unknown (null, never 0) when an OpenAI-compatible stream sends no usage chunk', async () => {
    stub.enqueue({ text: 'No usage here.', usage: null });
    const client = new OpenAIModelClient({ provider: 'openai-compatible', model: 'local', apiKey: 'x', baseURL: stub.baseURL, stream: true });
    const r = await ask(client);
    expect(streamedRequest(stub, 0)).toBe(true);
    expect(r).toMatchObject({ text: 'No usage here.', inputTokens: null, outputTokens: null });
    expect(r).not.toHaveProperty('cachedTokens');
  });
});
