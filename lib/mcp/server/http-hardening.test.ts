/**
 * Issue 11 §3: the HTTP server under hostile or careless clients, on a real socket — oversized and
 * malformed bodies answered with the JSON-RPC error a client expects, idle sessions reaped on a
 * timer, no client able to lock others out or use another's session (issue 24 §3) — and tool metadata an MCP client can rely on.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadDataset } from '../../stockroom/dataset/load-dataset';
import { httpConnection } from '../client/connections';
import { MAX_BODY_BYTES, MAX_SESSIONS, MAX_SESSIONS_PER_CLIENT, startStockroomHttpServer, type RunningHttpServer } from './http-server';
import { McpToolExecutor } from '../client/mcp-executor';
import { hasOwn, OWN_DATASET_DIR } from '../test-support';

const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const INITIALIZE = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } };

interface RpcAnswer {
  status: number;
  body: { error?: { code: number; message: string }; result?: unknown };
  session: string | null;
}

async function post(url: string, body: unknown, session?: string): Promise<RpcAnswer> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { ...HEADERS, ...(session ? { 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' } : {}) },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as RpcAnswer['body']) : {}, session: res.headers.get('mcp-session-id') };
}

/** A new session, initialized as a well-behaved client would. */
async function openSession(url: string): Promise<string> {
  const answer = await post(url, INITIALIZE);
  expect(answer.status).toBe(200);
  await post(url, { jsonrpc: '2.0', method: 'notifications/initialized' }, answer.session!);
  return answer.session!;
}

describe.skipIf(!hasOwn)('the HTTP server answers bad input with the right JSON-RPC error', () => {
  let server: RunningHttpServer;
  let session: string;
  beforeAll(async () => {
    server = await startStockroomHttpServer({ dataset: loadDataset(OWN_DATASET_DIR), weaknesses: [], port: 0, log: () => {} });
    session = await openSession(server.url);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('delivers 413 for a body over the limit instead of resetting the connection', async () => {
    const answer = await post(server.url, { ...INITIALIZE, padding: 'x'.repeat(MAX_BODY_BYTES + 10) });
    expect(answer.status).toBe(413);
    expect(answer.body.error?.code).toBe(-32600);
  });

  it('answers `arguments` given as a string with -32602 and a readable message, not -32603 and a zod dump', async () => {
    const answer = await post(server.url, { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'get_stock_level', arguments: '{"sku":"SKU-2001"}' } }, session);
    expect(answer.body.error?.code).toBe(-32602);
    expect(answer.body.error?.message).toBe('Invalid params: tools/call params.arguments must be an object of named arguments, got a string');
  });

  it('answers input that is not JSON-RPC with -32600', async () => {
    for (const body of [{ hello: 'world' }, [], [{ jsonrpc: '1.0', id: 1, method: 'ping' }]]) {
      const answer = await post(server.url, body, session);
      expect(answer.status).toBe(400);
      expect(answer.body.error?.code).toBe(-32600);
    }
  });
});

describe.skipIf(!hasOwn)('sessions', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('reaps idle sessions on a timer, without waiting for a new client (observed: reclaimed only lazily)', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
    const server = await startStockroomHttpServer({ dataset: loadDataset(OWN_DATASET_DIR), weaknesses: [], port: 0, sessionIdleMs: 60_000, log: () => {} });
    try {
      for (let i = 0; i < 3; i++) await openSession(server.url);
      expect(server.sessionCount()).toBe(3);
      vi.advanceTimersByTime(30_000);
      expect(server.sessionCount()).toBe(3);
      vi.advanceTimersByTime(60_000);
      expect(server.sessionCount()).toBe(0);
    } finally {
      await server.close();
    }
  });

  it('refuses a flood from one client with 429 and evicts no one else (observed: 256 sessions from one client, every other session 404)', async () => {
    const server = await startStockroomHttpServer({ dataset: loadDataset(OWN_DATASET_DIR), weaknesses: [], port: 0, log: () => {} });
    const other = await McpToolExecutor.connect(httpConnection(server.url, undefined, { Authorization: 'Bearer another-client' }));
    try {
      const statuses: number[] = [];
      for (let i = 0; i < MAX_SESSIONS + 1; i++) statuses.push((await post(server.url, INITIALIZE)).status);
      expect(statuses.filter((s) => s === 200)).toHaveLength(MAX_SESSIONS_PER_CLIENT);
      expect(statuses.slice(MAX_SESSIONS_PER_CLIENT).every((s) => s === 429)).toBe(true);
      // The other client's live session was never touched.
      expect((await other.call('get_stock_level', { sku: 'SKU-2001' })).isError).toBe(false);
    } finally {
      await other.close();
      await server.close();
    }
  }, 60_000);

  it("answers another client's session id as not found (observed: accepted)", async () => {
    const server = await startStockroomHttpServer({ dataset: loadDataset(OWN_DATASET_DIR), weaknesses: [], port: 0, log: () => {} });
    try {
      const mine = await openSession(server.url);
      const list = { jsonrpc: '2.0', id: 2, method: 'tools/list' };
      expect((await post(server.url, list, mine)).status).toBe(200);
      const stolen = await fetch(server.url, {
        method: 'POST',
        headers: { ...HEADERS, authorization: 'Bearer someone-else', 'mcp-session-id': mine, 'mcp-protocol-version': '2025-06-18' },
        body: JSON.stringify(list),
      });
      expect(stolen.status).toBe(404);
      expect((await post(server.url, list, mine)).status).toBe(200);
    } finally {
      await server.close();
    }
  });
});

describe.skipIf(!hasOwn)('tool metadata', () => {
  let server: RunningHttpServer;
  let client: McpToolExecutor;
  beforeAll(async () => {
    server = await startStockroomHttpServer({ dataset: loadDataset(OWN_DATASET_DIR), weaknesses: [], port: 0, log: () => {} });
    client = await McpToolExecutor.connect(httpConnection(server.url));
  });
  afterAll(async () => {
    await client?.close();
    await server?.close();
  });

  it('gives every tool a title, annotations (four reads read-only, the restock not) and an output schema', async () => {
    const tools = await client.listTools();
    expect(tools).toHaveLength(5);
    for (const tool of tools) {
      expect(tool.title).toBeTruthy();
      expect(tool.outputSchema).toMatchObject({ type: 'object' });
      expect(tool.annotations?.readOnlyHint).toBe(tool.name !== 'create_restock_request');
    }
  });

  it('returns structured content equal to the JSON of its text on success', async () => {
    const session = await openSession(server.url);
    for (const [name, args] of [
      ['search_products', { query: 'shelving' }],
      ['get_stock_level', { sku: 'SKU-2001' }],
      ['search_policy_docs', { query: 'restock' }],
    ] as const) {
      const answer = await post(server.url, { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name, arguments: args } }, session);
      const result = answer.body.result as { content: { text: string }[]; structuredContent: unknown };
      expect(JSON.parse(result.content[0]!.text)).toEqual(result.structuredContent);
    }
  });
});
