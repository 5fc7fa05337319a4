/**
 * Issue 36: the MCP HTTP server's memory did not come back once idle sessions were reaped. The MCP
 * SDK's client opens its GET stream right after initialize, and an open stream kept a session from
 * being idle, so every quiet SDK client kept its session's server, transport and environment until
 * it disconnected. Here real SDK clients on a real socket go quiet with their streams open; after
 * reaping, the sessions' objects must be gone from the heap — counted by V8 after a full collection
 * (`v8.queryObjects`), not inferred from a size or a time.
 */
import v8 from 'node:v8';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadDataset } from '../../stockroom/dataset/load-dataset';
import { StockroomEnvironment } from '../../stockroom';
import { httpConnection } from '../client/connections';
import { McpToolExecutor } from '../client/mcp-executor';
import { hasOwn, OWN_DATASET_DIR } from '../test-support';
import { startStockroomHttpServer } from './http-server';

const CLIENTS = 4;
const IDLE_MS = 60_000;

/** Live instances of what each session holds, counted by V8 after a full garbage collection. */
function liveSessionObjects(): Record<string, number> {
  const count = (ctor: abstract new (...args: never[]) => unknown) => v8.queryObjects(ctor as never, { format: 'count' }) as number;
  return {
    servers: count(Server),
    transports: count(StreamableHTTPServerTransport),
    environments: count(StockroomEnvironment),
  };
}

describe.skipIf(!hasOwn)('memory of reaped sessions', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("reaps quiet SDK clients whose GET streams are open and frees their sessions' servers, transports and environments (observed: none reaped)", async () => {
    const server = await startStockroomHttpServer({ dataset: loadDataset(OWN_DATASET_DIR), weaknesses: [], port: 0, sessionIdleMs: IDLE_MS, log: () => {} });
    const clients: McpToolExecutor[] = [];
    try {
      const before = liveSessionObjects();
      let streamsOpen = 0;
      const countingFetch: typeof fetch = async (input, init) => {
        const res = await fetch(input, init);
        if (init?.method === 'GET' && res.ok) streamsOpen++;
        return res;
      };
      for (let i = 0; i < CLIENTS; i++) {
        const client = await McpToolExecutor.connect(httpConnection(server.url, countingFetch, { Authorization: `Bearer quiet-client-${i}` }));
        clients.push(client);
        expect((await client.call('get_stock_level', { sku: 'SKU-2001' })).isError).toBe(false);
      }
      // Each client listens on its own GET stream, as the SDK's client does by itself.
      await vi.waitFor(() => expect(streamsOpen).toBe(CLIENTS));
      expect(server.sessionCount()).toBe(CLIENTS);
      const open = liveSessionObjects();
      for (const key of Object.keys(before)) expect(open[key]! - before[key]!, key).toBe(CLIENTS);

      // The clients go quiet past the idle limit without closing.
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(Date.now() + IDLE_MS + 1);
      expect(server.reapIdleSessions()).toBe(CLIENTS);
      vi.useRealTimers();
      expect(server.sessionCount()).toBe(0);
      // Closing is asynchronous (the transport ends its streams, then the server closes).
      await vi.waitFor(() => expect(liveSessionObjects()).toEqual(before), { timeout: 30_000 });
      // And once quiet, the server hands the memory their load grew back (one full collection).
      await vi.waitFor(() => expect(server.compactions()).toBe(1), { timeout: 30_000 });
    } finally {
      await Promise.all(clients.map((c) => c.close()));
      await server.close();
    }
  });
});
