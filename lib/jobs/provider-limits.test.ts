/**
 * Per-provider limits shared by workers: two database connections (as two worker processes have)
 * take slots from the same ProviderCall rows, so concurrent calls and requests per minute hold
 * across them. The model behind the limiter is the harness's scripted fake, held open by the test.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../db/core/client';
import { testProviders, type TestDatabase } from '../db/testing/test-databases';
import type { ModelClient } from '../harness/model/client';
import { scriptedModel } from '../harness/testing/scripted-model';
import { acquireSlot, parseProviderLimits, providerGates, releaseSlot, requestTokenEstimate } from './provider-limits';

describe('STOCKROOM_PROVIDER_LIMITS', () => {
  it('parses provider=concurrent:N,rpm:N,tpm:N entries', () => {
    expect(parseProviderLimits('openai=concurrent:16,rpm:500,tpm:200000; anthropic=concurrent:4')).toEqual(
      new Map([
        ['openai', { concurrent: 16, requestsPerMinute: 500, tokensPerMinute: 200000 }],
        ['anthropic', { concurrent: 4, requestsPerMinute: null, tokensPerMinute: null }],
      ]),
    );
  });
  it('estimates a request as providers reserve it: its input plus its output ceiling', () => {
    const small = { system: 'x'.repeat(40), messages: [], tools: [], maxTokens: 100 };
    const big = { ...small, messages: [{ role: 'user' as const, content: [{ text: 'y'.repeat(4000) }] }] };
    expect(requestTokenEstimate(small)).toBeGreaterThan(100);
    expect(requestTokenEstimate(big) - requestTokenEstimate(small)).toBeGreaterThanOrEqual(1000);
    expect(requestTokenEstimate({ ...small, maxTokens: 600 }) - requestTokenEstimate(small)).toBe(500);
  });
  it('refuses a bad entry naming the variable and the entry', () => {
    expect(() => parseProviderLimits('openai=concurrent:0')).toThrow(/STOCKROOM_PROVIDER_LIMITS: 'concurrent:0'/);
    expect(() => parseProviderLimits('openai=burst:3')).toThrow(/unknown limit 'burst'.*tpm/);
    expect(() => parseProviderLimits('openai=tpm:-5')).toThrow(/'tpm:-5'/);
    expect(() => parseProviderLimits('openai')).toThrow(/'openai' is not provider=/);
  });
});

// Workers (and so shared limits) exist on PostgreSQL only; the in-process SQLite queue has no limiter.
const providers = (await testProviders()).filter((p) => p.name === 'postgres');

describe.each(providers)('provider limits across workers on $name', (provider) => {
  let t: TestDatabase;
  let second: Database;
  const test = provider.skipReason ? it.skip : it;
  beforeAll(async () => {
    if (provider.skipReason) return;
    t = await provider.create();
    second = openDatabase(t.url);
  });
  afterAll(async () => {
    await second?.close();
    await t?.drop();
  });

  test('never more calls in flight than `concurrent`, whichever worker makes them', async () => {
    const limits = parseProviderLimits('openai-compatible=concurrent:2');
    let inFlight = 0;
    let most = 0;
    const releases: Array<() => void> = [];
    const held: ModelClient = {
      modelId: 'stockroom-fake',
      async converse(request) {
        inFlight += 1;
        most = Math.max(most, inFlight);
        await new Promise<void>((r) => releases.push(r));
        inFlight -= 1;
        return scriptedModel([{ text: 'done' }]).converse(request);
      },
    };
    const gates = [providerGates(t.db, limits, 'worker-a'), providerGates(second, limits, 'worker-b')].map((g) => g('openai-compatible:stockroom-fake')!);
    const request = { system: '', messages: [], tools: [], maxTokens: 10 } as never;
    const calls = Array.from({ length: 6 }, async (_, i) => {
      const done = await gates[i % 2]!(request, new AbortController().signal);
      const response = await held.converse(request);
      await done(response);
    });
    const until = async (ok: () => boolean) => {
      while (!ok()) await new Promise((r) => setTimeout(r, 20));
    };
    // Two calls get in; the other four wait at the limiter however long they are given.
    await until(() => inFlight === 2);
    await new Promise((r) => setTimeout(r, 300));
    expect(inFlight).toBe(2);
    // Then one held call is released at a time, and the waiting ones follow.
    for (let done = 0; done < 6; done += 1) {
      await until(() => releases.length > 0);
      releases.shift()!();
    }
    await Promise.all(calls);
    expect(most).toBe(2);
    expect(await t.db.prisma.providerCall.count({ where: { provider: 'openai-compatible', finishedAt: null } })).toBe(0);
  });

  test('never more requests started in a minute than `rpm`: the next caller waits', async () => {
    const limit = { concurrent: null, requestsPerMinute: 3, tokensPerMinute: null };
    for (let i = 0; i < 3; i++) await acquireSlot(i % 2 ? second : t.db, 'anthropic', limit, 'w');
    const waiting = new AbortController();
    const fourth = acquireSlot(second, 'anthropic', limit, 'w', waiting.signal);
    setTimeout(() => waiting.abort(new DOMException('gave up', 'AbortError')), 300);
    await expect(fourth).rejects.toThrow(/gave up/);
    expect(await t.db.prisma.providerCall.count({ where: { provider: 'anthropic' } })).toBe(3);
  });

  test('never more tokens in a minute than `tpm`: a call waits until the minute has room, and the reported usage replaces the estimate', async () => {
    const limit = { concurrent: null, requestsPerMinute: null, tokensPerMinute: 1000 };
    const first = await acquireSlot(t.db, 'bedrock', limit, 'worker-a', undefined, 600);
    // A second 600-token call would make 1,200 in the minute: it waits, on whichever worker.
    const waiting = new AbortController();
    const second1 = acquireSlot(second, 'bedrock', limit, 'worker-b', waiting.signal, 600);
    setTimeout(() => waiting.abort(new DOMException('gave up', 'AbortError')), 300);
    await expect(second1).rejects.toThrow(/gave up/);
    // The first call answers having used 200 tokens, not the 600 it reserved: 800 now fit.
    await releaseSlot(t.db, first, 200);
    await acquireSlot(second, 'bedrock', limit, 'worker-b', undefined, 600);
    const rows = await t.db.prisma.providerCall.findMany({ where: { provider: 'bedrock' }, orderBy: { startedAt: 'asc' } });
    expect(rows.map((r) => r.tokens)).toEqual([200, 600]);
  });

  test('a limited model reserves its estimate for the call and keeps what the provider reported', async () => {
    const limits = parseProviderLimits('anthropic=tpm:100000');
    const gate = providerGates(t.db, limits, 'worker-a')('anthropic:claude-test')!;
    expect(providerGates(t.db, limits, 'worker-a')('openai:gpt-test')).toBeUndefined();
    const request = { system: 'You are careful.', messages: [{ role: 'user' as const, content: [{ text: 'How many?' }] }], tools: [], maxTokens: 256 };
    const done = await gate(request as never, new AbortController().signal);
    const response = await scriptedModel([{ text: 'done' }]).converse(request as never);
    await done(response);
    const row = await t.db.prisma.providerCall.findFirstOrThrow({ where: { provider: 'anthropic', holder: 'worker-a', tokens: { gt: 0 } } });
    expect(row.finishedAt).not.toBeNull();
    expect(row.tokens).toBe(response.inputTokens! + response.outputTokens!);
  });
});
