/** The dashboard's /api/mcp route handler, called with web Requests (no Next server needed). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpConnection } from '@/lib/mcp/client/connections';
import { McpToolExecutor } from '@/lib/mcp/client/mcp-executor';
import { hasShared, SHARED_DATASET_DIR } from '@/lib/mcp/test-support';
import { createTestDatabaseUrl } from '@/lib/db/testing/test-databases';
import { migrate } from '@/scripts/db-migrate.mjs';
import { DELETE, GET, POST } from './route';

const URL_BASE = 'http://127.0.0.1:3000/api/mcp';
const TOKEN = 'route-test-token-0123456789';
const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${TOKEN}` };
const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'route-test', version: '1' } },
};

describe.skipIf(!hasShared)('POST /api/mcp', () => {
  const before = process.env.STOCKROOM_DATASET;
  const tokenBefore = process.env.STOCKROOM_MCP_TOKEN;
  const databaseBefore = process.env.DATABASE_URL;
  let database: { url: string; drop(): Promise<void> } | undefined;
  beforeAll(async () => {
    process.env.STOCKROOM_DATASET = SHARED_DATASET_DIR;
    process.env.STOCKROOM_MCP_TOKEN = TOKEN;
    // Writes over /api/mcp leave evidence: give the route a migrated database of its own.
    database = await createTestDatabaseUrl('sqlite');
    await migrate({ url: database.url });
    process.env.DATABASE_URL = database.url;
  });
  afterAll(async () => {
    if (databaseBefore === undefined) delete process.env.DATABASE_URL;
    else process.env.DATABASE_URL = databaseBefore;
    await database?.drop();
    if (before === undefined) delete process.env.STOCKROOM_DATASET;
    else process.env.STOCKROOM_DATASET = before;
    if (tokenBefore === undefined) delete process.env.STOCKROOM_MCP_TOKEN;
    else process.env.STOCKROOM_MCP_TOKEN = tokenBefore;
  });

  /** An MCP client whose fetch calls the route handler directly. */
  const connect = (query = '') =>
    McpToolExecutor.connect(
      httpConnection(`${URL_BASE}${query}`, (input, init) => {
        const request = new Request(input instanceof Request ? input : String(input), init);
        request.headers.set('authorization', `Bearer ${TOKEN}`);
        return POST(request);
      }),
    );

  it('refuses a caller without a token or session, and a wrong token, with 401 and a Bearer challenge', async () => {
    const { authorization: _omitted, ...anonymous } = HEADERS;
    for (const headers of [anonymous, { ...anonymous, authorization: 'Bearer not-the-token' }, { ...anonymous, authorization: 'Basic abc' }]) {
      const res = await POST(new Request(URL_BASE, { method: 'POST', headers, body: JSON.stringify(INITIALIZE) }));
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toContain('Bearer');
      expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(/^Unauthorized: /);
    }
  });

  it('opens a session on initialize, and still answers a request outside any session statelessly', async () => {
    const res = await POST(new Request(URL_BASE, { method: 'POST', headers: HEADERS, body: JSON.stringify(INITIALIZE) }));
    expect(res.status).toBe(200);
    const session = res.headers.get('mcp-session-id');
    expect(session).toMatch(/^[0-9a-f-]{36}$/);
    expect(await res.json()).toMatchObject({ result: { serverInfo: { name: 'stockroom-inventory' }, capabilities: { resources: { subscribe: true } } } });
    // A script that never initializes (no session id) is answered all the same.
    const list = await POST(new Request(URL_BASE, { method: 'POST', headers: HEADERS, body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }) }));
    expect(list.status).toBe(200);
    expect(list.headers.get('mcp-session-id')).toBeNull();
    expect(((await list.json()) as { result: { tools: unknown[] } }).result.tools.length).toBeGreaterThan(0);
    const ended = await DELETE(new Request(URL_BASE, { method: 'DELETE', headers: { ...HEADERS, 'mcp-session-id': session! } }));
    expect(ended.status).toBe(200);
  });

  it('serves the tools, with the weakness flags of the query string', async () => {
    const plain = await connect();
    const ambiguous = await connect('?weaknesses=ambiguous_tool_desc');
    try {
      const [a] = await plain.listSpecs();
      const [b] = await ambiguous.listSpecs();
      expect(a?.description).toMatch(/^Search the product catalogue/);
      expect(b?.description).toMatch(/^Look up products/);
    } finally {
      await plain.close();
      await ambiguous.close();
    }
  });

  it('offers no reset to outside clients, and refuses a call to it as an unknown tool', async () => {
    const executor = await connect();
    try {
      expect(await executor.offersReset()).toBe(false);
      expect((await executor.call('reset_session_state', {})).errorCode).toBe('unknown_tool');
    } finally {
      await executor.close();
    }
  });

  it('queues a 3,000-unit restock for a reviewer, then applies the identical call once after approval', async () => {
    const executor = await connect();
    const { getDb } = await import('@/lib/db/core/client');
    const { decideApproval } = await import('@/lib/db/governance/governance-approvals');
    const prisma = getDb().prisma;
    try {
      const args = { sku: 'SKU-1004', quantity: 3000 };
      const result = await executor.call('create_restock_request', args);
      expect(result.errorCode).toBe('approval_pending');
      expect(result.content).toMatchObject({ rule: 'restock-above-auto-approve', status: 'pending', applied: false });
      const id = (result.content as { approval_request_id: string }).approval_request_id;
      // The dashboard's own queue holds it, for the token's tenant.
      expect(await prisma.approvalRequest.findUniqueOrThrow({ where: { id } })).toMatchObject({ status: 'pending', tenant: 'kittiwake', tool: 'create_restock_request' });
      expect((await executor.call('approval_status', { request_id: id })).content).toMatchObject({ approval_request_id: id, status: 'pending' });

      await prisma.user.create({ data: { id: 'route-reviewer', name: 'R', email: 'route-reviewer@example.com' } });
      await prisma.membership.create({ data: { userId: 'route-reviewer', tenant: 'kittiwake', role: 'reviewer' } });
      const decided = await decideApproval(prisma, { id, reviewer: { id: 'route-reviewer', memberships: [{ tenant: 'kittiwake', role: 'reviewer' }] }, verdict: 'approve', reason: 'ok', now: new Date() });
      expect(decided).toMatchObject({ ok: true, status: 'approved' });

      const applied = await executor.call('create_restock_request', args);
      expect(applied.isError).toBe(false);
      const again = await executor.call('create_restock_request', args);
      expect((again.content as { request_id: string }).request_id).toBe((applied.content as { request_id: string }).request_id);
      expect(await prisma.effectJournalEntry.count({ where: { callId: id } })).toBe(1);
    } finally {
      await executor.close();
    }
  });

  it('refuses a foreign Host or Origin with 403 even with the right token', async () => {
    for (const extra of [{ host: 'attacker.example' }, { origin: 'http://attacker.example' }] as Record<string, string>[]) {
      const res = await POST(new Request(URL_BASE, { method: 'POST', headers: { ...HEADERS, ...extra }, body: JSON.stringify(INITIALIZE) }));
      expect(res.status).toBe(403);
      expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(/not allowed/);
    }
  });

  it('refuses an unknown weakness with 400 naming the parameter and the allowed values', async () => {
    const res = await POST(
      new Request(`${URL_BASE}?weaknesses=naive_retry,telepathy`, { method: 'POST', headers: HEADERS, body: JSON.stringify(INITIALIZE) }),
    );
    expect(res.status).toBe(400);
    const body = (await res.json()) as { parameter: string; message: string; allowed: string[] };
    expect(body.parameter).toBe('weaknesses');
    expect(body.message).toContain('telepathy');
    expect(body.allowed).toEqual(['ambiguous_tool_desc', 'oversized_payload', 'naive_retry', 'injection_unguarded']);
  });

  it('refuses GET and DELETE without a token with 401, like POST', async () => {
    const { authorization: _omitted, ...anonymous } = HEADERS;
    expect((await GET(new Request(URL_BASE, { method: 'GET', headers: anonymous }))).status).toBe(401);
    expect((await DELETE(new Request(URL_BASE, { method: 'DELETE', headers: anonymous }))).status).toBe(401);
  });

  it('answers GET and DELETE with 400 naming the Mcp-Session-Id header when it is missing, and 404 for a session that does not exist', async () => {
    for (const method of ['GET', 'DELETE'] as const) {
      const handler = method === 'GET' ? GET : DELETE;
      const missing = await handler(new Request(URL_BASE, { method, headers: HEADERS }));
      expect(missing.status).toBe(400);
      expect(((await missing.json()) as { error: { message: string } }).error.message).toContain('Mcp-Session-Id');
      const unknown = await handler(new Request(URL_BASE, { method, headers: { ...HEADERS, 'mcp-session-id': '00000000-0000-4000-8000-000000000000' } }));
      expect(unknown.status).toBe(404);
      expect(await unknown.json()).toMatchObject({ error: { code: -32001 } });
    }
  });
});
