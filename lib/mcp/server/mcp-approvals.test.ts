/**
 * Issue 11, approval_required over MCP: a governed write that needs approval, sent by an outside
 * agent to the project's MCP server, becomes a pending approval request in the dashboard's table
 * (bound to the digest of the exact proposal, tenant-scoped); the client polls `approval_status`;
 * after a reviewer approves, the identical call goes through the policy re-check and the effect
 * journal exactly once; a different proposal with the old approval is refused. Over a real stdio
 * child and a real HTTP server process (`stockroom mcp-server --policy … --approvals`), on SQLite.
 */
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { migrate } from '../../../scripts/db-migrate.mjs';
import { openDatabase, type Database } from '../../db/core/client';
import { createApprovalRequest, decideApproval } from '../../db/governance/governance-approvals';
import { createTestDatabaseUrl } from '../../db/testing/test-databases';
import { proposalDigest, type BoundProposal } from '../../governance/proposal';
import { childEnvironment } from '../client/connections';
import { APPROVAL_REQUEST_META_KEY, APPROVAL_STATUS_TOOL_NAME } from './mcp-approvals';
import { REPO_ROOT } from '../shared/paths';
import { hasOwn, OWN_DATASET_DIR } from '../test-support';

const SERVER_ARGS = ['--import', 'tsx', '--conditions=react-server', 'cli/stockroom.ts', 'mcp-server', '--dataset', OWN_DATASET_DIR, '--policy', 'config/policy.json', '--approvals'];
const REVIEWER = 'user_mcp_reviewer';

type Answer = { isError: boolean; body: Record<string, unknown> };

async function call(client: Client, name: string, args: Record<string, unknown>, approvalId?: string): Promise<Answer> {
  const result = (await client.callTool(
    { name, arguments: args, ...(approvalId ? { _meta: { [APPROVAL_REQUEST_META_KEY]: approvalId } } : {}) },
    CallToolResultSchema,
  )) as CallToolResult;
  const text = result.content.find((c) => c.type === 'text');
  return { isError: result.isError === true, body: JSON.parse(text && 'text' in text ? text.text : '{}') as Record<string, unknown> };
}

/** Starts `mcp-server --transport http --port 0` and reads its URL from stderr. */
async function startHttpServer(env: Record<string, string>, actor: string): Promise<{ url: string; child: ChildProcessByStdio<null, null, Readable> }> {
  const child = spawn(process.execPath, [...SERVER_ARGS, '--actor', actor, '--transport', 'http', '--port', '0'], {
    cwd: REPO_ROOT,
    env: env as NodeJS.ProcessEnv,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const found = /on (http:\/\/\S+)/.exec(stderr);
      if (found) resolve(found[1]!);
    });
    child.once('exit', (code: number | null) => reject(new Error(`mcp-server exited with ${code}: ${stderr}`)));
  });
  return { url, child };
}

describe.skipIf(!hasOwn)('approval_required over MCP (real processes, SQLite)', () => {
  let database: { url: string; drop(): Promise<void> };
  let db: Database;
  let env: Record<string, string>;

  beforeAll(async () => {
    database = await createTestDatabaseUrl('sqlite');
    await migrate({ url: database.url });
    db = openDatabase(database.url);
    await db.prisma.user.create({ data: { id: REVIEWER, name: 'Rita Reviewer', email: 'rita@example.com' } });
    await db.prisma.membership.create({ data: { userId: REVIEWER, tenant: 'kittiwake', role: 'reviewer' } });
    env = { ...childEnvironment([]), DATABASE_URL: database.url };
  }, 120_000);
  afterAll(async () => {
    await db?.close();
    await database?.drop();
  });

  const approve = (id: string) =>
    decideApproval(db.prisma, { id, reviewer: { id: REVIEWER, memberships: [{ tenant: 'kittiwake', role: 'reviewer' }] }, verdict: 'approve', reason: 'stock is low', now: new Date() });

  /** One scenario, run over each transport. */
  async function scenario(client: Client, actor: string, sku: string): Promise<void> {
    const proposal = { sku, quantity: 750 };
    const first = await call(client, 'create_restock_request', proposal);
    expect(first.isError).toBe(true);
    expect(first.body).toMatchObject({ error: 'approval_pending', status: 'pending', rule: 'restock-above-auto-approve', applied: false });
    const id = first.body.approval_request_id as string;
    expect(id).toMatch(/^apr_/);

    // The request is the dashboard's: same table, bound to the digest of this exact proposal.
    const stored = await db.prisma.approvalRequest.findUniqueOrThrow({ where: { id } });
    const bound = JSON.parse(stored.proposal) as BoundProposal;
    expect(bound).toMatchObject({ actor, tenant: 'kittiwake', tool: 'create_restock_request', arguments: proposal });
    expect(stored.digest).toBe(proposalDigest(bound));
    expect(stored.status).toBe('pending');

    expect((await call(client, APPROVAL_STATUS_TOOL_NAME, { request_id: id })).body).toMatchObject({ approval_request_id: id, status: 'pending' });
    // Asking again before a decision files no second request.
    expect((await call(client, 'create_restock_request', proposal)).body).toMatchObject({ error: 'approval_pending', approval_request_id: id });
    expect(await db.prisma.approvalRequest.count({ where: { actor } })).toBe(1);
    expect(await db.prisma.effectJournalEntry.count({ where: { runId: `mcp:${actor}` } })).toBe(0);

    expect(await approve(id)).toMatchObject({ ok: true, status: 'approved' });
    expect((await call(client, APPROVAL_STATUS_TOOL_NAME, { request_id: id })).body).toMatchObject({ status: 'approved' });

    // A different proposal does not ride on the approval.
    const other = await call(client, 'create_restock_request', { sku, quantity: 751 }, id);
    expect(other).toMatchObject({ isError: true, body: { error: 'approval_mismatch', field: 'arguments', applied: false } });
    expect(await db.prisma.effectJournalEntry.count({ where: { runId: `mcp:${actor}` } })).toBe(0);

    // The identical call goes through the journal, once, however often it is sent.
    const applied = await call(client, 'create_restock_request', proposal);
    expect(applied.isError).toBe(false);
    expect(applied.body).toMatchObject({ sku, quantity: 750, request_id: expect.any(String) });
    const again = await call(client, 'create_restock_request', proposal, id);
    expect(again.body.request_id).toBe(applied.body.request_id);
    const entries = await db.prisma.effectJournalEntry.findMany({ where: { runId: `mcp:${actor}` } });
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ status: 'committed', callId: id, tool: 'create_restock_request' });
  }

  it('queues the write for a reviewer over stdio, then applies the identical call exactly once', async () => {
    const actor = 'stdio-agent';
    const client = new Client({ name: 'approvals-test', version: '1' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [...SERVER_ARGS, '--actor', actor], cwd: REPO_ROOT, env, stderr: 'pipe' }));
    try {
      const listed = await client.listTools();
      expect(listed.tools.map((t) => t.name)).toContain(APPROVAL_STATUS_TOOL_NAME);
      await scenario(client, actor, 'SKU-2001');
    } finally {
      await client.close();
    }
  }, 120_000);

  it('queues the write for a reviewer over HTTP, then applies the identical call exactly once', async () => {
    const actor = 'http-agent';
    const { url, child } = await startHttpServer(env, actor);
    const client = new Client({ name: 'approvals-test', version: '1' });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      await scenario(client, actor, 'SKU-2001');
    } finally {
      await client.close();
      child.kill('SIGTERM');
    }
  }, 120_000);

  it('answers approval_status only for requests of the caller’s tenant, and files one request for a call sent twice at once', async () => {
    const now = new Date();
    const proposal: BoundProposal = {
      actor: 'someone',
      tenant: 'puffin',
      tool: 'create_restock_request',
      toolVersion: '1',
      schemaDigest: 'x',
      arguments: { sku: 'SKU-2001', quantity: 900 },
      policyVersion: 'v',
      expiresAt: new Date(now.getTime() + 60_000).toISOString(),
    };
    const foreign = await createApprovalRequest(
      db.prisma,
      { id: 'apr_foreign', runId: 'mcp:someone', callId: 'c', step: 0, rule: 'r', message: 'm', approverRole: 'reviewer', quorum: 1, proposal, digest: proposalDigest(proposal) },
      now,
    );
    const client = new Client({ name: 'approvals-test', version: '1' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: SERVER_ARGS, cwd: REPO_ROOT, env, stderr: 'pipe' }));
    try {
      // The same call sent twice at once files one request.
      const twice = await Promise.all([1, 2].map(() => call(client, 'create_restock_request', { sku: 'SKU-2002', quantity: 800 })));
      expect(twice[0]!.body.approval_request_id).toMatch(/^apr_/);
      expect(twice[1]!.body.approval_request_id).toBe(twice[0]!.body.approval_request_id);
      expect(await db.prisma.approvalRequest.count({ where: { actor: 'mcp-agent' } })).toBe(1);

      const answer = await call(client, APPROVAL_STATUS_TOOL_NAME, { request_id: foreign.id });
      expect(answer).toMatchObject({ isError: true, body: { error: 'approval_not_found', approval_request_id: foreign.id } });
      expect(JSON.stringify(answer.body)).not.toContain('puffin');
    } finally {
      await client.close();
    }
  }, 120_000);
});
