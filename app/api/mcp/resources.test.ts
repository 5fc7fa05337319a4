/**
 * Issue 40: /api/mcp serves the caller's runs, suites and golden sets as MCP resources with URI
 * templates, an `explain_run` prompt, and completion of their arguments, used with the MCP SDK's own
 * Client (its fetch calls the route handler). Scoped to the caller's tenant: another tenant's run,
 * suite or golden set is not found (-32002), never shown, never completed, never explained.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { openDatabase, type Database } from '@/lib/db/core/client';
import { importGoldenSet } from '@/lib/db/review/golden-sets';
import { saveRun } from '@/lib/db/runs/runs-write';
import { createSuiteRun } from '@/lib/db/suites/suites';
import { makeMeta, makeRun } from '@/lib/db/testing/run-fixtures';
import { createTestDatabaseUrl } from '@/lib/db/testing/test-databases';
import { DEFAULT_TENANT } from '@/lib/governance/principal';
import { APPROVAL_QUEUE_URI, RESOURCE_NOT_FOUND } from '@/lib/mcp/server/resources';
import { createApprovalRequest } from '@/lib/db/governance/governance-approvals';
import { proposalDigest, type BoundProposal } from '@/lib/governance/proposal';
import { hasShared, OWN_DATASET_DIR, SHARED_DATASET_DIR } from '@/lib/mcp/test-support';
import { migrate } from '@/scripts/db-migrate.mjs';
import { POST } from './route';

const URL_BASE = 'http://127.0.0.1:3000/api/mcp';
const TOKEN = 'resources-test-token-0123456789';
const OTHER = 'puffin';

describe.skipIf(!hasShared)('/api/mcp resources', () => {
  const saved = { ...process.env };
  let database: { url: string; drop(): Promise<void> } | undefined;
  let db: Database;
  let client: Client;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    database = await createTestDatabaseUrl('sqlite');
    await migrate({ url: database.url });
    Object.assign(process.env, { STOCKROOM_DATASET: SHARED_DATASET_DIR, STOCKROOM_MCP_TOKEN: TOKEN, DATABASE_URL: database.url });
    db = openDatabase(database.url);
    ids.mine = await saveRun(makeRun({ runId: 'mine' }), makeMeta({ tenant: DEFAULT_TENANT }), db);
    ids.theirs = await saveRun(makeRun({ runId: 'theirs' }), makeMeta({ tenant: OTHER }), db);
    ids.mySuite = await createSuiteRun({ kind: 'eval', config: {}, datasetName: 'stockroom-v1', datasetHash: 'h', total: 1, tenant: DEFAULT_TENANT }, db);
    ids.theirSuite = await createSuiteRun({ kind: 'eval', config: {}, datasetName: 'stockroom-v1', datasetHash: 'h', total: 1, tenant: OTHER }, db);
    const line = readFileSync(path.join(OWN_DATASET_DIR, 'golden/stockroom_golden_own_v1.jsonl'), 'utf8').split('\n')[0]!;
    await importGoldenSet(DEFAULT_TENANT, 'smoke', `${line}\n`, null, db);
    await importGoldenSet(OTHER, 'secret-set', `${line}\n`, null, db);
    client = new Client({ name: 'resources-test', version: '1' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(URL_BASE), {
        fetch: (input, init) => {
          const request = new Request(input instanceof Request ? input : String(input), init);
          request.headers.set('authorization', `Bearer ${TOKEN}`);
          return POST(request);
        },
      }),
    );
  });
  afterAll(async () => {
    await client?.close();
    await db?.close();
    process.env = saved;
    await database?.drop();
  });

  const notFound = async (uri: string) => {
    const err = await client.readResource({ uri }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(McpError);
    expect((err as McpError).code).toBe(RESOURCE_NOT_FOUND);
  };

  it('declares resources and offers a URI template for runs, suites and golden sets', async () => {
    expect(client.getServerCapabilities()?.resources).toBeDefined();
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual(['stockroom://runs/{runId}', 'stockroom://suites/{suiteId}', 'stockroom://golden-sets/{name}']);
  });

  it("lists the caller's tenant's runs, suites and golden sets, and none of another tenant's", async () => {
    const uris = (await client.listResources()).resources.map((r) => r.uri);
    expect(uris).toContain(`stockroom://runs/${ids.mine}`);
    expect(uris).toContain(`stockroom://suites/${ids.mySuite}`);
    expect(uris).toContain('stockroom://golden-sets/smoke');
    expect(uris).not.toContain(`stockroom://runs/${ids.theirs}`);
    expect(uris).not.toContain(`stockroom://suites/${ids.theirSuite}`);
    expect(uris).not.toContain('stockroom://golden-sets/secret-set');
  });

  it('reads a run, a suite and a golden set of the tenant by their templates', async () => {
    const run = (await client.readResource({ uri: `stockroom://runs/${ids.mine}` })).contents[0] as { text: string; mimeType: string };
    expect(run.mimeType).toBe('application/json');
    expect(JSON.parse(run.text)).toMatchObject({ id: ids.mine, run: { query: expect.any(String) } });
    const suite = (await client.readResource({ uri: `stockroom://suites/${ids.mySuite}` })).contents[0] as { text: string };
    expect(JSON.parse(suite.text)).toMatchObject({ id: ids.mySuite, kind: 'eval', cases: [] });
    const set = (await client.readResource({ uri: 'stockroom://golden-sets/smoke' })).contents[0] as { text: string; mimeType: string };
    expect(set.mimeType).toBe('application/jsonl');
    expect(set.text).toContain('"id": "S001"');
  });

  it("answers another tenant's run, suite and golden set exactly like ones that do not exist", async () => {
    await notFound(`stockroom://runs/${ids.theirs}`);
    await notFound(`stockroom://suites/${ids.theirSuite}`);
    await notFound('stockroom://golden-sets/secret-set');
    await notFound('stockroom://runs/no-such-run-0000');
    await notFound('stockroom://elsewhere/x');
  });

  it("completes template and prompt arguments with the tenant's own ids and names only", async () => {
    const runs = await client.complete({ ref: { type: 'ref/resource', uri: 'stockroom://runs/{runId}' }, argument: { name: 'runId', value: ids.mine!.slice(0, 4) } });
    expect(runs.completion.values).toContain(ids.mine);
    const every = await client.complete({ ref: { type: 'ref/resource', uri: 'stockroom://runs/{runId}' }, argument: { name: 'runId', value: '' } });
    expect(every.completion.values).not.toContain(ids.theirs);
    const sets = await client.complete({ ref: { type: 'ref/resource', uri: 'stockroom://golden-sets/{name}' }, argument: { name: 'name', value: 's' } });
    expect(sets.completion.values).toEqual(['smoke']);
    const prompt = await client.complete({ ref: { type: 'ref/prompt', name: 'explain_run' }, argument: { name: 'runId', value: '' } });
    expect(prompt.completion.values).toContain(ids.mine);
    expect(prompt.completion.values).not.toContain(ids.theirs);
  });

  it('offers explain_run, embedding the run, and answers another tenant’s run like a missing one', async () => {
    expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual(['explain_run', 'triage_approvals']);
    const got = await client.getPrompt({ name: 'explain_run', arguments: { runId: ids.mine! } });
    expect(got.messages[0]?.content).toMatchObject({ type: 'text', text: expect.stringContaining('why the run ended') });
    expect(got.messages[1]?.content).toMatchObject({ type: 'resource', resource: { uri: `stockroom://runs/${ids.mine}`, mimeType: 'application/json' } });
    for (const runId of [ids.theirs!, 'no-such-run-0000']) {
      await expect(client.getPrompt({ name: 'explain_run', arguments: { runId } })).rejects.toThrow(`runId: no run ${runId}`);
    }
  });

  it('offers triage_approvals: the pending queue of the caller’s tenant only, soonest to expire first, with what each call would do', async () => {
    const now = new Date();
    const request = async (id: string, tenant: string, quantity: number, minutes: number) => {
      const proposal: BoundProposal = {
        actor: 'someone',
        tenant,
        tool: 'create_restock_request',
        toolVersion: '1',
        schemaDigest: 'x',
        arguments: { sku: 'SKU-2001', quantity },
        policyVersion: 'v',
        expiresAt: new Date(now.getTime() + minutes * 60_000).toISOString(),
      };
      await createApprovalRequest(db.prisma, { id, runId: ids.mine!, callId: `c-${id}`, step: 1, rule: 'large_restock', message: 'over 500 units', approverRole: 'reviewer', quorum: 2, proposal, digest: proposalDigest(proposal) }, now);
    };
    await request('apr_late', DEFAULT_TENANT, 777, 60);
    await request('apr_soon', DEFAULT_TENANT, 901, 5);
    await request('apr_theirs', OTHER, 555, 1);

    const got = await client.getPrompt({ name: 'triage_approvals' });
    expect(got.messages[0]?.content).toMatchObject({ type: 'text', text: expect.stringContaining('do not decide') });
    const embedded = got.messages[1]?.content as { type: string; resource: { uri: string; text: string } };
    expect(embedded).toMatchObject({ type: 'resource', resource: { uri: APPROVAL_QUEUE_URI } });
    const queue = JSON.parse(embedded.resource.text) as { pending: number; requests: { id: string; arguments: unknown; quorum: number; approvals: number; page: string }[] };
    expect(queue.pending).toBe(2);
    expect(queue.requests.map((r) => r.id)).toEqual(['apr_soon', 'apr_late']);
    expect(queue.requests[0]).toMatchObject({ arguments: { sku: 'SKU-2001', quantity: 901 }, quorum: 2, approvals: 0, page: '/approvals/apr_soon' });
    expect(embedded.resource.text).not.toContain('apr_theirs');
    expect(embedded.resource.text).not.toContain(OTHER);

    // The same queue is a resource of its own, listed and readable.
    expect((await client.listResources()).resources.map((r) => r.uri)).toContain(APPROVAL_QUEUE_URI);
    const read = await client.readResource({ uri: APPROVAL_QUEUE_URI });
    expect(JSON.parse(String((read.contents[0] as { text?: string } | undefined)?.text)).requests.map((r: { id: string }) => r.id)).toEqual(['apr_soon', 'apr_late']);
  });
});
