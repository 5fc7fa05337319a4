/**
 * Issue 40, a followed run while the database is away: on a PostgreSQL cluster of this test's own,
 * stopped for a few of the watch hub's ticks mid-run and started again. The subscription outlives
 * the outage (the hub keeps its one reader of the run, retrying each tick), and the next step stored
 * once the database is back is told by itself, then the end — nothing to re-subscribe.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { nextCacheMock, nextHeadersMock, setUpActionEnv, type ActionEnv } from '@/lib/actions/testing/action-env';
import { pgClusterSkipReason, startPgCluster, type PgCluster } from '@/lib/db/testing/pg-cluster';
import { makeMeta, makeRun } from '@/lib/db/testing/run-fixtures';

vi.mock('next/headers', () => nextHeadersMock());
vi.mock('next/cache', () => nextCacheMock());

const skip = pgClusterSkipReason();
if (skip) console.warn(`subscriptions-pg.test: skipped: ${skip}`);

const TOKEN = 'subscriptions-pg-token-0123456789';

describe.skipIf(skip)('a followed run while PostgreSQL restarts', () => {
  let cluster: PgCluster;
  let env: ActionEnv;
  const tokenBefore = process.env.STOCKROOM_MCP_TOKEN;
  beforeAll(async () => {
    cluster = await startPgCluster();
    env = await setUpActionEnv({ provider: 'postgres', pgServer: cluster.server });
    process.env.STOCKROOM_MCP_TOKEN = TOKEN;
  }, 120_000);
  afterAll(async () => {
    const { endpoint } = await import('./endpoint');
    await endpoint.close();
    if (tokenBefore === undefined) delete process.env.STOCKROOM_MCP_TOKEN;
    else process.env.STOCKROOM_MCP_TOKEN = tokenBefore;
    await cluster?.start().catch(() => undefined); // already running
    await env?.cleanup();
    await cluster?.destroy();
  });

  it('tells of the steps stored after the database came back, by itself', async () => {
    const { POST, GET, DELETE } = await import('./route');
    const { saveRun } = await import('@/lib/db/runs/runs-write');
    const { liveRecorders } = await import('@/lib/runs/store');
    const { PROGRESS_POLL_MS, watchedRuns } = await import('@/lib/runs/progress-hub');
    const id = 'mcp-sub-pg-run-0001';
    const uri = `stockroom://runs/${id}`;
    const meta = { ...makeMeta({ tenant: 'kittiwake' }), id };
    await saveRun({ ...makeRun({ runId: 'h-pg', rounds: 1 }), status: 'running' }, meta);
    const { onStep } = liveRecorders(meta);
    const step = (rounds: number, finished = false) => onStep!(finished ? makeRun({ runId: 'h-pg', rounds }) : { ...makeRun({ runId: 'h-pg', rounds }), status: 'running' });

    const client = new Client({ name: 'subscriptions-pg', version: '1' });
    const updates: string[] = [];
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void updates.push(n.params.uri));
    const handlers = { POST, GET, DELETE };
    const transport = new StreamableHTTPClientTransport(new URL('http://127.0.0.1:3000/api/mcp'), {
      fetch: (input, init) => {
        const request = new Request(input instanceof Request ? input : String(input), init);
        request.headers.set('authorization', `Bearer ${TOKEN}`);
        return handlers[request.method as keyof typeof handlers](request);
      },
    });
    await client.connect(transport);
    try {
      await client.subscribeResource({ uri });
      await step(2);
      await vi.waitFor(() => expect(updates).toHaveLength(1));

      // Down for a few of the hub's ticks: each read fails, and the hub keeps the run.
      await cluster.restart(5 * PROGRESS_POLL_MS);
      expect(watchedRuns()).toBe(1);

      await step(3);
      await vi.waitFor(() => expect(updates).toHaveLength(2), { timeout: 15_000 });
      const read = (await client.readResource({ uri })).contents[0] as { text: string };
      expect((JSON.parse(read.text) as { run: { steps: number } }).run.steps).toBe(makeRun({ rounds: 3 }).steps);

      await step(3, true);
      await vi.waitFor(() => expect(updates).toHaveLength(3), { timeout: 15_000 });
      expect(updates.every((u) => u === uri)).toBe(true);
      expect(watchedRuns()).toBe(0);
    } finally {
      await transport.terminateSession().catch(() => undefined);
      await client.close();
    }
  });
});
