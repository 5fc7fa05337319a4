/**
 * Issue 40, subscription to a running run: on main /api/mcp was stateless (a fresh server per POST),
 * offered no `resources/subscribe`, and a client could not follow a running run. Now an initialize
 * opens a session bound to its caller; `resources/subscribe` on `stockroom://runs/{id}` sends
 * `notifications/resources/updated` on the session's GET stream as the run is stored step by step
 * (the live recorders the run service uses) and at its end or deletion, through the per-run watch hub
 * the run page's event stream uses. The MCP SDK's own Client and StreamableHTTPClientTransport, whose
 * fetch calls the route's handlers.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError, ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { nextCacheMock, nextHeadersMock, setUpActionEnv, type ActionEnv, type TestUser } from '@/lib/actions/testing/action-env';
import { makeMeta, makeRun } from '@/lib/db/testing/run-fixtures';
import { SESSION_IDLE_MS } from '@/lib/mcp/server/session-table';

vi.mock('next/headers', () => nextHeadersMock());
vi.mock('next/cache', () => nextCacheMock());

const URL_BASE = 'http://127.0.0.1:3000/api/mcp';
const TOKEN = 'subscriptions-test-token-0123456789';
const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' };

let env: ActionEnv;
const tokenBefore = process.env.STOCKROOM_MCP_TOKEN;
beforeAll(async () => {
  env = await setUpActionEnv();
  process.env.STOCKROOM_MCP_TOKEN = TOKEN;
});
afterAll(async () => {
  const { endpoint } = await import('./endpoint');
  await endpoint.close();
  if (tokenBefore === undefined) delete process.env.STOCKROOM_MCP_TOKEN;
  else process.env.STOCKROOM_MCP_TOKEN = tokenBefore;
  await env.cleanup();
});

/** How a request proves its caller: the deployment's token, or a dashboard user's session cookie. */
type As = 'token' | TestUser;

async function credentials(as: As): Promise<[string, string]> {
  if (as === 'token') return ['authorization', `Bearer ${TOKEN}`];
  env.as(as);
  const { headers } = await import('next/headers');
  return ['cookie', (await headers()).get('cookie')!];
}

/** The route's handler for the request's method, called as `as`. */
async function call(request: Request, as: As): Promise<Response> {
  const route = await import('./route');
  const [name, value] = await credentials(as);
  request.headers.set(name, value);
  const handler = { GET: route.GET, POST: route.POST, DELETE: route.DELETE }[request.method as 'GET' | 'POST' | 'DELETE'];
  return handler(request);
}

/** The SDK's client on /api/mcp as `as`, collecting the URIs it is told were updated. */
async function connect(as: As = 'token') {
  const client = new Client({ name: 'subscriptions-test', version: '1' });
  const updates: string[] = [];
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void updates.push(n.params.uri));
  let streamsOpened = 0;
  const transport = new StreamableHTTPClientTransport(new URL(URL_BASE), {
    fetch: async (input, init) => {
      const response = await call(new Request(input instanceof Request ? input : String(input), init), as);
      if (init?.method === 'GET' && response.ok) streamsOpened++;
      return response;
    },
  });
  await client.connect(transport);
  /** GET streams the SDK's client opened (it opens one by itself after initialize). */
  const streams = () => streamsOpened;
  return { client, transport, updates, streams };
}

/** A raw request in session `session`, as `as`. */
const inSession = (session: string, as: As, method: 'POST' | 'GET' | 'DELETE', body?: unknown) =>
  call(new Request(URL_BASE, { method, headers: { ...HEADERS, 'mcp-session-id': session }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) }), as);

/** A live run of `tenant`, stored as it goes by the run service's own recorders. */
async function liveRun(id: string, tenant = 'kittiwake') {
  const { saveRun } = await import('@/lib/db/runs/runs-write');
  const { liveRecorders } = await import('@/lib/runs/store');
  const meta = { ...makeMeta({ tenant }), id };
  await saveRun({ ...makeRun({ runId: `h-${id}`, rounds: 1 }), status: 'running' }, meta);
  const { onStep } = liveRecorders(meta);
  return {
    uri: `stockroom://runs/${id}`,
    /** Stores the run so far at `rounds` steps (finished: its end). */
    step: async (rounds: number, finished = false) => {
      await onStep!(finished ? makeRun({ runId: `h-${id}`, rounds }) : { ...makeRun({ runId: `h-${id}`, rounds }), status: 'running' });
    },
  };
}

const watchedRuns = async () => (await import('@/lib/runs/progress-hub')).watchedRuns();

const readRun = async (client: Client, uri: string) => {
  const text = (await client.readResource({ uri })).contents[0] as { text: string };
  return (JSON.parse(text.text) as { run: { steps: number; status: string } }).run;
};

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (e: unknown) => e as McpError,
  );

describe('following a run over /api/mcp', () => {
  it('opens a session on initialize and advertises resources.subscribe', async () => {
    const { client, transport } = await connect();
    try {
      expect(transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);
      expect(client.getServerCapabilities()?.resources).toMatchObject({ subscribe: true });
    } finally {
      await transport.terminateSession();
      await client.close();
    }
  });

  it('tells of each new step and of the end; a read after an update shows the new step; one reader of the run however many follow it', async () => {
    const run = await liveRun('mcp-sub-run-0001');
    const a = await connect();
    const b = await connect('operator');
    try {
      await a.client.subscribeResource({ uri: run.uri });
      await b.client.subscribeResource({ uri: run.uri });
      expect(await watchedRuns()).toBe(1);

      await run.step(2);
      await vi.waitFor(() => expect(a.updates).toEqual([run.uri]));
      await vi.waitFor(() => expect(b.updates).toEqual([run.uri]));
      expect(await readRun(a.client, run.uri)).toMatchObject({ steps: makeRun({ rounds: 2 }).steps, status: 'running' });

      await run.step(3);
      await vi.waitFor(() => expect(a.updates).toHaveLength(2));
      expect((await readRun(a.client, run.uri)).steps).toBe(makeRun({ rounds: 3 }).steps);

      await run.step(3, true);
      await vi.waitFor(() => expect(a.updates).toHaveLength(3));
      await vi.waitFor(() => expect(b.updates).toHaveLength(3));
      expect((await readRun(b.client, run.uri)).status).toBe('finished');
      // Ended: the hub reads it no more.
      expect(await watchedRuns()).toBe(0);
    } finally {
      for (const c of [a, b]) {
        await c.transport.terminateSession();
        await c.client.close();
      }
    }
  });

  it('stops telling once unsubscribed: the hub lets go of the run', async () => {
    const left = await liveRun('mcp-sub-run-0002');
    const kept = await liveRun('mcp-sub-run-0003');
    const { client, transport, updates } = await connect();
    try {
      await client.subscribeResource({ uri: left.uri });
      await client.subscribeResource({ uri: kept.uri });
      expect(await watchedRuns()).toBe(2);
      await client.unsubscribeResource({ uri: left.uri });
      expect(await watchedRuns()).toBe(1);
      await left.step(2);
      await kept.step(2);
      await vi.waitFor(() => expect(updates).toContain(kept.uri));
      expect(updates).not.toContain(left.uri);
    } finally {
      await transport.terminateSession();
      await client.close();
    }
  });

  it('sends a final update for a run deleted while followed, which then reads as not found', async () => {
    const run = await liveRun('mcp-sub-run-0004');
    const { client, transport, updates } = await connect();
    try {
      await client.subscribeResource({ uri: run.uri });
      const { deleteRun } = await import('@/lib/db/runs/runs-write');
      await deleteRun('mcp-sub-run-0004');
      await vi.waitFor(() => expect(updates).toEqual([run.uri]));
      expect(await watchedRuns()).toBe(0);
      expect((await refusal(client.readResource({ uri: run.uri })))?.code).toBe(-32002);
    } finally {
      await transport.terminateSession();
      await client.close();
    }
  });

  it("answers another tenant's run, a missing one and a malformed URI as not found, and refuses to follow a suite", async () => {
    const theirs = await liveRun('mcp-sub-run-0005', 'puffin');
    const { client, transport } = await connect();
    try {
      for (const uri of [theirs.uri, 'stockroom://runs/no-such-run-0000', 'stockroom://elsewhere/x']) {
        const err = await refusal(client.subscribeResource({ uri }));
        expect(err, uri).toBeInstanceOf(McpError);
        expect(err!.code, uri).toBe(-32002);
        expect(err!.message).not.toContain('puffin');
      }
      const suite = await refusal(client.subscribeResource({ uri: 'stockroom://suites/anything' }));
      expect(suite?.code).toBe(ErrorCode.InvalidParams);
      expect(suite?.message).toContain('Only runs can be followed');
      expect(await watchedRuns()).toBe(0);
    } finally {
      await transport.terminateSession();
      await client.close();
    }
  });

  it("answers another caller's session id as not found, whichever method, and leaves the session to its owner", async () => {
    const { client, transport } = await connect();
    const session = transport.sessionId!;
    try {
      const list = { jsonrpc: '2.0', id: 9, method: 'resources/list' };
      for (const other of ['operator', 'admin'] as const) {
        const stolen = await inSession(session, other, 'POST', list);
        expect(stolen.status, other).toBe(404);
        expect(await stolen.json()).toMatchObject({ error: { code: -32001 } });
        expect((await inSession(session, other, 'GET')).status).toBe(404);
        expect((await inSession(session, other, 'DELETE')).status).toBe(404);
      }
      // Another tenant's user is not served at all here (the dataset is kittiwake's): the same 404.
      expect((await inSession(session, 'outsider', 'POST', list)).status).toBe(404);
      expect((await client.listResources()).resources.length).toBeGreaterThan(0);
    } finally {
      await transport.terminateSession();
      await client.close();
    }
  });

  it('ends a session on DELETE, releasing the runs it followed; its id is then not found', async () => {
    const run = await liveRun('mcp-sub-run-0006');
    const { client, transport } = await connect();
    const session = transport.sessionId!;
    try {
      await client.subscribeResource({ uri: run.uri });
      expect(await watchedRuns()).toBe(1);
      await transport.terminateSession();
      expect(await watchedRuns()).toBe(0);
      expect((await inSession(session, 'token', 'POST', { jsonrpc: '2.0', id: 3, method: 'ping' })).status).toBe(404);
    } finally {
      await client.close();
    }
  });

  it('reaps a session its client left without DELETE, releasing its runs, but not one whose client is listening', async () => {
    const { endpoint } = await import('./endpoint');
    const run = await liveRun('mcp-sub-run-0007');
    const gone = await connect();
    const listening = await connect();
    const goneSession = gone.transport.sessionId!;
    try {
      await gone.client.subscribeResource({ uri: run.uri });
      await listening.client.subscribeResource({ uri: run.uri });
      // An update reached the listener: its GET stream is open.
      await run.step(2);
      await vi.waitFor(() => expect(listening.updates).toHaveLength(1));
      await gone.client.close();

      endpoint.reapIdleSessions(Date.now() + SESSION_IDLE_MS + 1);
      expect((await inSession(goneSession, 'token', 'POST', { jsonrpc: '2.0', id: 3, method: 'ping' })).status).toBe(404);
      // The listener still follows the run; the hub's one reader is its alone now.
      expect(await watchedRuns()).toBe(1);
      await run.step(3);
      await vi.waitFor(() => expect(listening.updates).toHaveLength(2));

      await listening.client.close();
      endpoint.reapIdleSessions(Date.now() + SESSION_IDLE_MS + 1);
      expect(await watchedRuns()).toBe(0);
    } finally {
      await gone.client.close();
      await listening.client.close();
    }
  });

  it('reaps a quiet client that follows nothing although its GET stream is open (observed: every quiet SDK client kept its session)', async () => {
    const { endpoint } = await import('./endpoint');
    const quiet = await connect();
    const session = quiet.transport.sessionId!;
    try {
      await vi.waitFor(() => expect(quiet.streams()).toBe(1));
      expect((await inSession(session, 'token', 'POST', { jsonrpc: '2.0', id: 3, method: 'ping' })).status).toBe(200);
      endpoint.reapIdleSessions(Date.now() + SESSION_IDLE_MS + 1);
      expect((await inSession(session, 'token', 'POST', { jsonrpc: '2.0', id: 4, method: 'ping' })).status).toBe(404);
    } finally {
      await quiet.client.close();
    }
  });

  it('refuses a caller past its session cap with 429 and Retry-After, without closing its other sessions', async () => {
    const { MAX_SESSIONS_PER_CLIENT } = await import('@/lib/mcp/server/session-table');
    const { endpoint } = await import('./endpoint');
    const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'flood', version: '1' } } };
    const open = () => call(new Request(URL_BASE, { method: 'POST', headers: HEADERS, body: JSON.stringify(initialize) }), 'admin');
    const sessions: string[] = [];
    try {
      for (let i = 0; i < MAX_SESSIONS_PER_CLIENT; i++) {
        const res = await open();
        expect(res.status).toBe(200);
        sessions.push(res.headers.get('mcp-session-id')!);
      }
      const refused = await open();
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
      // Another caller is not held to this one's cap.
      const other = await connect();
      await other.transport.terminateSession();
      await other.client.close();
      expect((await inSession(sessions[0]!, 'admin', 'POST', { jsonrpc: '2.0', id: 3, method: 'ping' })).status).toBe(200);
    } finally {
      for (const s of sessions) await inSession(s, 'admin', 'DELETE');
    }
    expect(endpoint.sessionCount()).toBe(0);
  });

  it('answers a session id from before a restart with 404, and the client initializes again', async () => {
    const { client, transport } = await connect();
    const session = transport.sessionId!;
    await client.close();
    // A new process: the route module and its endpoint loaded afresh.
    vi.resetModules();
    const res = await inSession(session, 'token', 'POST', { jsonrpc: '2.0', id: 2, method: 'resources/list' });
    expect(res.status).toBe(404);
    const again = await connect();
    try {
      expect(again.transport.sessionId).not.toBe(session);
      expect((await again.client.listResources()).resources.length).toBeGreaterThan(0);
    } finally {
      await again.transport.terminateSession();
      await again.client.close();
    }
  });
});
