/**
 * Provider limits as the provider counts them (issue 23, part 3): two workers (two database
 * connections, each with its own LISTEN connection) call a counting stub on 127.0.0.1 that speaks
 * OpenAI's chat completions, through the real OpenAI client and the resilient client, and the stub
 * answers some requests with a 500 so the client retries. Observed: with `concurrent:3,rpm:40`
 * the provider saw 42 requests in one window (a call was counted once when its slot was granted,
 * not each request when sent), and waiting workers polled every 25 ms under an advisory lock.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../db/core/client';
import { testProviders, type TestDatabase } from '../db/testing/test-databases';
import { liveModelFactory } from '../models/create-model-client';
import { providerGates, SlotWaiter, type ProviderLimit } from './provider-limits';

const pgProvider = (await testProviders()).find((p) => p.name === 'postgres')!;

/** A chat-completions stub that counts: each request's arrival time and the most in flight at once. */
function countingStub(latencyMs: number, failEvery: number) {
  const arrivals: number[] = [];
  let inFlight = 0;
  let most = 0;
  const server = http.createServer((req, res) => {
    const n = arrivals.push(Date.now());
    inFlight += 1;
    most = Math.max(most, inFlight);
    req.resume();
    req.on('end', () =>
      setTimeout(() => {
        inFlight -= 1;
        if (n % failEvery === 0) {
          res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'overloaded', type: 'server_error' } }));
          return;
        }
        res.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            id: `chatcmpl-${n}`,
            object: 'chat.completion',
            created: Math.floor(Date.now() / 1000),
            model: 'stub',
            choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
            usage: { prompt_tokens: 20, completion_tokens: 2, total_tokens: 22 },
          }),
        );
      }, latencyMs),
    );
  });
  return { server, arrivals, most: () => most };
}

describe.skipIf(pgProvider.skipReason !== null)('provider limits at the wire, two workers, on PostgreSQL', { timeout: 180_000 }, () => {
  let t: TestDatabase;
  let second: Database;
  const stub = countingStub(150, 4);
  let url: string;
  const waiters: SlotWaiter[] = [];
  beforeAll(async () => {
    t = await pgProvider.create();
    second = openDatabase(t.url);
    await new Promise<void>((r) => stub.server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(stub.server.address() as AddressInfo).port}/v1`;
  });
  afterAll(async () => {
    await Promise.all(waiters.map((w) => w.close()));
    await new Promise((r) => stub.server.close(r));
    await second?.close();
    await t?.drop();
  });

  it('the stub never sees more than `concurrent` at once nor more than `rpm` in any window, retries included; waiting costs no polling', async () => {
    const windowMs = 3_000;
    const limit: ProviderLimit = { concurrent: 3, requestsPerMinute: 8, tokensPerMinute: null, windowMs };
    const limits = new Map([['openai-compatible', limit]]);
    const commits = async () => Number((await t.db.prisma.$queryRaw<{ n: bigint }[]>`SELECT xact_commit AS n FROM pg_stat_database WHERE datname = current_database()`)[0]!.n);
    const workers = [t.db, second].map((db, i) => {
      const waiter = new SlotWaiter(t.url);
      waiters.push(waiter);
      const gate = providerGates(db, limits, `worker-${i}`, waiter)('openai-compatible:stub');
      const factory = liveModelFactory({ model: 'openai-compatible:stub', modelBaseUrl: url }, { env: {}, gate, resilience: { retries: 3, initialDelayMs: 20, maxDelayMs: 100 } })!;
      return factory({ caseId: null, weaknesses: [] });
    });
    const before = await commits();
    const calls = 20;
    const results = await Promise.all(
      Array.from({ length: calls }, (_, i) => workers[i % 2]!.converse({ system: 'You count.', messages: [{ role: 'user', content: [{ text: `call ${i}` }] }], tools: [], maxTokens: 16 })),
    );
    const after = await commits();
    expect(results).toHaveLength(calls);
    // Some requests failed and were retried: the stub saw more requests than calls, and every one counted.
    expect(stub.arrivals.length).toBeGreaterThan(calls);
    expect(stub.most()).toBeLessThanOrEqual(3);
    const arrivals = [...stub.arrivals].sort((a, b) => a - b);
    const busiest = Math.max(...arrivals.map((a) => arrivals.filter((b) => b >= a && b < a + windowMs).length));
    expect(busiest).toBeLessThanOrEqual(limit.requestsPerMinute!);
    // A request takes a slot (one commit) and releases it (one more): waiting adds a few, not one every 25 ms.
    const perRequest = (after - before) / stub.arrivals.length;
    console.log(`requests ${stub.arrivals.length} for ${calls} calls, busiest window ${busiest}, commits per request ${perRequest.toFixed(1)}`);
    expect(perRequest).toBeLessThan(20);
  });
});
