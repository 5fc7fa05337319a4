import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ModelRetryNotice } from '../harness/model/client';
import type { ToolSpec } from '../harness/types';
import { OpenAIModelClient } from './openai-client';
import { AnthropicModelClient } from './anthropic-client';
import { BedrockModelClient } from './bedrock-client';
import { ProviderCallError } from './errors';
import { resetBreakers, ResilientModelClient, type ResilienceOptions } from './resilience';
import { ProviderStub, type StubProvider } from './testing/stub-server';

const TOOLS: ToolSpec[] = [{ name: 'noop', description: 'does nothing', inputSchema: { type: 'object', properties: {} } }];
// Tiny delays: the tests count attempts and read reasons, they never time anything.
const FAST: Partial<ResilienceOptions> = { retries: 2, initialDelayMs: 1, maxDelayMs: 2, timeoutMs: 2_000, breakerThreshold: 3, halfOpenAfterMs: 60_000, random: () => 0.5 };

function rawClient(stub: ProviderStub, model: string) {
  switch (stub.provider) {
    case 'openai':
      return new OpenAIModelClient({ provider: 'openai', model, apiKey: 'sk-test', baseURL: stub.baseURL });
    case 'anthropic':
      return new AnthropicModelClient({ model, apiKey: 'sk-ant-test', baseURL: stub.baseURL });
    case 'bedrock':
      return new BedrockModelClient({ model, region: 'us-east-1', endpoint: stub.baseURL, credentials: { accessKeyId: 'AKIAFAKE', secretAccessKey: 'x' } });
  }
}

async function failure(p: Promise<unknown>): Promise<ProviderCallError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ProviderCallError);
  return err as ProviderCallError;
}

let modelSeq = 0;

describe.each(['openai', 'anthropic', 'bedrock'] as const)('%s through the resilience layer', (provider: StubProvider) => {
  let stub: ProviderStub;
  beforeAll(async () => {
    stub = await ProviderStub.start(provider);
  });
  afterAll(() => stub.close());
  beforeEach(() => {
    stub.reset();
    resetBreakers();
  });

  const client = (o: Partial<ResilienceOptions> = {}) => new ResilientModelClient(rawClient(stub, `m${++modelSeq}`), { ...FAST, ...o });
  const call = (c: ResilientModelClient, onRetry?: (n: ModelRetryNotice) => void, signal?: AbortSignal) =>
    c.converse({ system: 's', messages: [{ role: 'user', content: [{ text: 'hi' }] }], tools: TOOLS, maxTokens: 16, onRetry, signal });

  it('retries a 429, honouring Retry-After, and succeeds on the next attempt', async () => {
    const retries: ModelRetryNotice[] = [];
    stub.enqueue({ kind: 'error', status: 429, headers: { 'retry-after': '0.02' }, errorType: 'ThrottlingException' }, { text: 'ok' });
    const r = await call(client(), (n) => retries.push(n));
    expect(r.text).toBe('ok');
    expect(stub.requests).toHaveLength(2);
    expect(retries).toEqual([{ attempt: 1, reason: 'throttled', delayMs: 20, detail: expect.any(String) }]);
  });

  it('ends as throttled when every attempt is throttled, one request per attempt', async () => {
    const retries: ModelRetryNotice[] = [];
    stub.enqueue(...Array.from({ length: 3 }, () => ({ kind: 'error' as const, status: 429, errorType: 'ThrottlingException' })));
    const err = await failure(call(client(), (n) => retries.push(n)));
    expect(err.kind).toBe('throttled');
    expect(stub.requests).toHaveLength(3); // 1 + 2 retries: SDK retries are off, so nothing multiplies
    expect(retries.map((r) => r.attempt)).toEqual([1, 2]);
  });

  it('ends as server_error after 500s', async () => {
    stub.enqueue(...Array.from({ length: 3 }, () => ({ kind: 'error' as const, status: 500, errorType: 'InternalServerException' })));
    expect((await failure(call(client()))).kind).toBe('server_error');
  });

  it('ends as auth on a 401 / 403 without retrying', async () => {
    stub.enqueue({ kind: 'error', status: provider === 'bedrock' ? 403 : 401, errorType: provider === 'bedrock' ? 'AccessDeniedException' : 'authentication_error' });
    expect((await failure(call(client()))).kind).toBe('auth');
    expect(stub.requests).toHaveLength(1);
  });

  it('ends as bad_request on a 400 without retrying', async () => {
    stub.enqueue({ kind: 'error', status: 400, errorType: provider === 'bedrock' ? 'ValidationException' : 'invalid_request_error' });
    expect((await failure(call(client()))).kind).toBe('bad_request');
    expect(stub.requests).toHaveLength(1);
  });

  it('ends as bad_response on a malformed body', async () => {
    stub.enqueue({ kind: 'raw', body: '{"choices": [' });
    expect((await failure(call(client()))).kind).toBe('bad_response');
    expect(stub.requests).toHaveLength(1);
  });

  it('ends as timeout when the endpoint never answers', async () => {
    stub.enqueue({ kind: 'hang' }, { kind: 'hang' }, { kind: 'hang' });
    const retries: ModelRetryNotice[] = [];
    const err = await failure(call(client({ timeoutMs: 200 }), (n) => retries.push(n)));
    expect(err.kind).toBe('timeout');
    // Each attempt timed out and was retried (under load an attempt may time out before its request lands, so count the retries).
    expect(retries.map((r) => r.reason)).toEqual(['timeout', 'timeout']);
  });

  it('is cancelled by the caller’s signal, without retrying', async () => {
    stub.enqueue({ kind: 'hang' });
    const controller = new AbortController();
    const pending = call(client(), undefined, controller.signal);
    await vi.waitFor(() => expect(stub.requests).toHaveLength(1));
    controller.abort();
    expect((await failure(pending)).kind).toBe('cancelled');
    expect(stub.requests).toHaveLength(1);
  });
});

describe('the circuit breaker per provider and model', () => {
  let stub: ProviderStub;
  beforeAll(async () => {
    stub = await ProviderStub.start('openai');
  });
  afterAll(() => stub.close());
  afterEach(() => vi.useRealTimers());

  it('opens after consecutive failed calls, refuses without calling, and closes after a successful half-open probe', async () => {
    resetBreakers();
    vi.useFakeTimers({ toFake: ['Date'] });
    const o = { ...FAST, retries: 0, breakerThreshold: 2, halfOpenAfterMs: 30_000 };
    const c = new ResilientModelClient(rawClient(stub, 'breaker-model'), o);
    const other = new ResilientModelClient(rawClient(stub, 'other-model'), o);
    const call = (x: ResilientModelClient) => x.converse({ system: 's', messages: [{ role: 'user', content: [{ text: 'hi' }] }], tools: TOOLS, maxTokens: 16 });

    stub.enqueue({ kind: 'error', status: 500 }, { kind: 'error', status: 500 });
    expect((await failure(call(c))).kind).toBe('server_error');
    expect((await failure(call(c))).kind).toBe('server_error');
    const before = stub.requests.length;
    expect((await failure(call(c))).kind).toBe('circuit_open');
    expect(stub.requests.length).toBe(before); // refused without a request
    expect((await call(other)).text).toBe('Done.'); // another model has its own circuit

    vi.setSystemTime(Date.now() + 31_000);
    stub.enqueue({ text: 'probe ok' });
    expect((await call(c)).text).toBe('probe ok'); // half-open probe succeeds: closed again
    expect((await call(c)).text).toBe('Done.');
  });
});

describe('circuit breakers keyed by provider, endpoint and model (issue 22 §6)', () => {
  let down: ProviderStub;
  let up: ProviderStub;
  beforeAll(async () => {
    [down, up] = await Promise.all([ProviderStub.start('openai'), ProviderStub.start('openai')]);
  });
  afterAll(async () => {
    await Promise.all([down.close(), up.close()]);
  });

  it('a failing server does not open the circuit of another server answering to the same model id', async () => {
    resetBreakers();
    const o = { ...FAST, retries: 0, breakerThreshold: 2 };
    const at = (stub: ProviderStub) =>
      new ResilientModelClient(new OpenAIModelClient({ provider: 'openai-compatible', model: 'same-name', apiKey: 'k', baseURL: stub.baseURL }), o);
    const call = (x: ResilientModelClient) => x.converse({ system: 's', messages: [{ role: 'user', content: [{ text: 'hi' }] }], tools: TOOLS, maxTokens: 16 });
    const a = at(down);
    const b = at(up);
    expect(a.modelId).toBe(b.modelId);
    down.respondWith(() => ({ kind: 'error', status: 503 }));
    expect((await failure(call(a))).kind).toBe('server_error');
    expect((await failure(call(a))).kind).toBe('server_error');
    expect((await failure(call(a))).kind).toBe('circuit_open');
    // Same provider and model name, another endpoint: its own circuit, still closed.
    expect((await call(b)).text).toBe('Done.');
    // A second client of the failing endpoint (the judge beside the agent) shares its open circuit.
    expect((await failure(call(at(down)))).kind).toBe('circuit_open');
    down.respondWith(null);
  });
});
