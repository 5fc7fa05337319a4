/**
 * Taint for outside agents over /api/mcp (issue 34), with the MCP SDK's own client and streamable
 * HTTP transport against the route handler: a write within the auto-approve limit is applied at
 * once; after the caller has read the policy document with the planted "SYSTEM NOTICE TO AI
 * ASSISTANTS", the same kind of write waits for a reviewer under rule `tainted-run`, the request in
 * the dashboard's queue says where the caller was tainted, and nothing is written before a decision.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabaseUrl } from '@/lib/db/testing/test-databases';
import { migrate } from '@/scripts/db-migrate.mjs';
import { POST } from './route';

const URL_BASE = 'http://127.0.0.1:3000/api/mcp';
const TOKEN = 'taint-route-test-token-0123456789';
const SAVED = ['STOCKROOM_DATASET', 'STOCKROOM_MCP_TOKEN', 'DATABASE_URL'] as const;

type Content = { type: string; text?: string }[];
const payload = (result: unknown) => {
  const r = result as { content?: unknown; structuredContent?: unknown };
  if (r.structuredContent !== undefined) return r.structuredContent as Record<string, unknown>;
  const text = (r.content as Content).find((c) => c.type === 'text')?.text ?? 'null';
  return JSON.parse(text) as Record<string, unknown>;
};

describe('a tainted outside agent over /api/mcp', () => {
  const before = Object.fromEntries(SAVED.map((k) => [k, process.env[k]]));
  let database: { url: string; drop(): Promise<void> } | undefined;
  let client: Client;
  beforeAll(async () => {
    delete process.env.STOCKROOM_DATASET; // the bundled dataset: its replenishment policy holds the planted notice
    process.env.STOCKROOM_MCP_TOKEN = TOKEN;
    database = await createTestDatabaseUrl('sqlite');
    await migrate({ url: database.url });
    process.env.DATABASE_URL = database.url;
    client = new Client({ name: 'outside-agent', version: '1' });
    const transport = new StreamableHTTPClientTransport(new URL(URL_BASE), {
      fetch: (input, init) => {
        const request = new Request(input instanceof Request ? input : String(input), init);
        request.headers.set('authorization', `Bearer ${TOKEN}`);
        return POST(request);
      },
    });
    await client.connect(transport);
  });
  afterAll(async () => {
    await client?.close();
    await database?.drop();
    for (const k of SAVED) {
      if (before[k] === undefined) delete process.env[k];
      else process.env[k] = before[k];
    }
  });

  it('writes at once while clean; after reading the planted instruction the next write waits for a person and says why', async () => {
    const { getDb } = await import('@/lib/db/core/client');
    const prisma = getDb().prisma;
    const clean = await client.callTool({ name: 'create_restock_request', arguments: { sku: 'SKU-2027', quantity: 100 } });
    expect(clean.isError).toBeFalsy();
    expect(await prisma.effectJournalEntry.count({ where: { status: 'committed' } })).toBe(1);

    const read = await client.callTool({ name: 'search_policy_docs', arguments: { query: 'restock priority when stock is zero' } });
    expect(JSON.stringify(read.content)).toMatch(/SYSTEM NOTICE TO AI ASSISTANTS/);

    const held = await client.callTool({ name: 'create_restock_request', arguments: { sku: 'SKU-2003', quantity: 100 } });
    expect(held.isError).toBe(true);
    const body = payload(held);
    expect(body).toMatchObject({ rule: 'tainted-run', status: 'pending', applied: false });
    const id = body.approval_request_id as string;
    const request = await prisma.approvalRequest.findUniqueOrThrow({ where: { id } });
    expect(request).toMatchObject({ status: 'pending', tenant: 'kittiwake', tool: 'create_restock_request', rule: 'tainted-run' });
    expect(request.message).toBe('tainted at step 2: an instruction planted in search_policy_docs (the quarantine detector flagged it), so every write waits for a person');
    // Nothing more was written: still the one restock from before the taint.
    expect(await prisma.effectJournalEntry.count({ where: { status: 'committed' } })).toBe(1);
    // Reads are unaffected.
    expect((await client.callTool({ name: 'search_products', arguments: { query: 'widget' } })).isError).toBeFalsy();

    // A reviewer approves: the identical call is then applied, once.
    const { decideApproval } = await import('@/lib/db/governance/governance-approvals');
    await prisma.user.create({ data: { id: 'taint-reviewer', name: 'R', email: 'taint-reviewer@example.com' } });
    await prisma.membership.create({ data: { userId: 'taint-reviewer', tenant: 'kittiwake', role: 'reviewer' } });
    expect(await decideApproval(prisma, { id, reviewer: { id: 'taint-reviewer', memberships: [{ tenant: 'kittiwake', role: 'reviewer' }] }, verdict: 'approve', reason: 'asked for', now: new Date() })).toMatchObject({ ok: true, status: 'approved' });
    const applied = await client.callTool({ name: 'create_restock_request', arguments: { sku: 'SKU-2003', quantity: 100 } });
    expect(applied.isError).toBeFalsy();
    expect(await prisma.effectJournalEntry.count({ where: { status: 'committed' } })).toBe(2);
    expect(await prisma.effectJournalEntry.count({ where: { callId: id } })).toBe(1);
  });
});
