/**
 * Issue 9 §3, over real sockets and a real child process: what an outside MCP client can do with a
 * write and with the reset. The stand-alone server refuses writes without a policy file; with one,
 * writes are decided by the policy and committed through the journal with evidence; the reset is
 * never offered to outside clients, and each client has an environment of its own.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryEvidenceSink } from '../governance/evidence';
import { MemoryJournalStore } from '../governance/memory-journal-store';
import { loadPolicyFile } from '../governance/policy-file';
import { DEFAULT_TENANT, OPERATOR_SCOPES } from '../governance/principal';
import { loadDataset } from '../stockroom/dataset/load-dataset';
import { httpConnection } from './client/connections';
import { startStockroomHttpServer, type RunningHttpServer } from './server/http-server';
import { McpToolExecutor } from './client/mcp-executor';
import { REPO_ROOT } from './shared/paths';
import { RESET_TOOL_NAME } from './shared/protocol';
import { hasOwn, OWN_DATASET_DIR } from './test-support';
import { WebMcpEndpoint } from './server/web-endpoint';
import { GovernedWrites, OPEN_WRITES } from './server/write-gate';

const POLICY = loadPolicyFile(path.join(REPO_ROOT, 'config/policy.json'));
/** A product of our dataset and a quantity its restock rules accept (at least the minimum). */
const SKU = 'SKU-2001';

/** Starts `stockroom mcp-server --transport http --port 0` and resolves with its URL from stderr. */
async function startCliServer(extra: string[] = []): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', '--conditions=react-server', 'cli/stockroom.ts', 'mcp-server', '--transport', 'http', '--port', '0', '--dataset', OWN_DATASET_DIR, ...extra],
    { cwd: REPO_ROOT, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const url = await new Promise<string>((resolve, reject) => {
    let err = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      err += chunk.toString();
      const found = /on (http:\/\/\S+\/mcp)/.exec(err);
      if (found) resolve(found[1]!);
    });
    child.once('exit', (code) => reject(new Error(`mcp-server exited with ${code}: ${err}`)));
  });
  return { url, child };
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

describe.skipIf(!hasOwn)('the stand-alone `mcp-server` (a real process)', () => {
  let server: { url: string; child: ChildProcess };
  let client: McpToolExecutor;
  beforeAll(async () => {
    server = await startCliServer();
    client = await McpToolExecutor.connect(httpConnection(server.url));
  }, 30_000);
  afterAll(async () => {
    await client?.close();
    if (server) await stop(server.child);
  });

  it('refuses a 3,000-unit restock without a policy file, saying how to start it with one', async () => {
    const result = await client.call('create_restock_request', { sku: SKU, quantity: 3000 });
    expect(result.errorCode).toBe('write_refused');
    expect((result.content as { message: string }).message).toContain('--policy');
  });

  it('still answers reads', async () => {
    const result = await client.call('get_stock_level', { sku: SKU });
    expect(result.isError).toBe(false);
    expect(result.content).toMatchObject({ sku: SKU });
  });

  it('does not offer the private reset, and refuses a call to it as an unknown tool', async () => {
    expect(await client.offersReset()).toBe(false);
    const result = await client.call(RESET_TOOL_NAME, {});
    expect(result.errorCode).toBe('unknown_tool');
  });
});

describe.skipIf(!hasOwn)('`mcp-server --policy`: writes through the policy, the journal and the evidence', () => {
  const dataset = hasOwn ? loadDataset(OWN_DATASET_DIR) : (undefined as never);
  const journal = new MemoryJournalStore();
  const evidence = new MemoryEvidenceSink();
  let server: RunningHttpServer;
  beforeAll(async () => {
    server = await startStockroomHttpServer({
      dataset,
      weaknesses: [],
      port: 0,
      log: () => {},
      writesFor: (sessionId) =>
        new GovernedWrites({
          policy: POLICY,
          principal: { subject: `mcp-session:${sessionId}`, tenant: DEFAULT_TENANT, scopes: [...OPERATOR_SCOPES] },
          runTenant: DEFAULT_TENANT,
          journal,
          evidence,
          runId: `mcp:${sessionId}`,
        }),
    });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('tells the caller a 3,000-unit restock needs approval, naming the rule, and applies nothing', async () => {
    const client = await McpToolExecutor.connect(httpConnection(server.url));
    try {
      const result = await client.call('create_restock_request', { sku: SKU, quantity: 3000 });
      expect(result.errorCode).toBe('approval_required');
      expect(result.content).toMatchObject({ rule: 'restock-above-auto-approve', applied: false, approver_role: 'reviewer' });
      // Nothing reached the ledger: the next allowed restock is the session's first.
      const next = await client.call('create_restock_request', { sku: SKU, quantity: 40 });
      expect(next.content).toMatchObject({ request_id: 'RSR-0001' });
    } finally {
      await client.close();
    }
  });

  it('commits an allowed restock through the journal once per operation key, with evidence of the decision and the effect', async () => {
    const client = await McpToolExecutor.connect(httpConnection(server.url));
    try {
      const first = await client.call('create_restock_request', { sku: SKU, quantity: 30 }, { operationKey: 'client-key-1' });
      const again = await client.call('create_restock_request', { sku: SKU, quantity: 30 }, { operationKey: 'client-key-1' });
      expect(first.isError).toBe(false);
      // A retried delivery returns the recorded result instead of a second restock.
      expect(again.content).toEqual(first.content);
      const entries = (await journal.list()).filter((e) => e.status === 'committed' && e.argumentsDigest && e.tool === 'create_restock_request');
      expect(entries.some((e) => e.runId.startsWith('mcp:') && e.callId === 'client-key-1')).toBe(true);
      const kinds = evidence.events.map((e) => `${e.body.kind}:${e.body.decision ?? e.body.effectStatus}`);
      expect(kinds).toEqual(expect.arrayContaining(['policy_decision:approval_required', 'policy_decision:allow', 'effect:committed']));
    } finally {
      await client.close();
    }
  });
});

describe.skipIf(!hasOwn)('/api/mcp callers (the web endpoint)', () => {
  const endpoint = new WebMcpEndpoint(() => loadDataset(OWN_DATASET_DIR));
  /** An executor whose fetch goes to the endpoint as `callerKey` (writes open: isolation is what is tested). */
  const connect = (callerKey: string) =>
    McpToolExecutor.connect(
      httpConnection('http://127.0.0.1/api/mcp', (input, init) =>
        endpoint.handle(new Request(input instanceof Request ? input : String(input), init), { key: callerKey, writes: OPEN_WRITES }),
      ),
    );

  it('ignores an approval id an outside caller sends: a large restock still waits for the manager', async () => {
    const caller = await connect('tenant-a\ncarol');
    try {
      const held = await caller.call('create_restock_request', { sku: SKU, quantity: 750 }, { operationKey: 'carol-1', approval: { id: 'apr_forged' } });
      expect(held.content).toMatchObject({ status: 'pending_approval' });
    } finally {
      await caller.close();
    }
  });

  it("gives each caller an environment of its own: one caller's restocks never number another's", async () => {
    const alice = await connect('tenant-a\nalice');
    const bob = await connect('tenant-a\nbob');
    try {
      const a1 = await alice.call('create_restock_request', { sku: SKU, quantity: 30 });
      const a2 = await alice.call('create_restock_request', { sku: 'SKU-2002', quantity: 30 });
      const b1 = await bob.call('create_restock_request', { sku: SKU, quantity: 30 });
      expect(a1.content).toMatchObject({ request_id: 'RSR-0001' });
      expect(a2.content).toMatchObject({ request_id: 'RSR-0002' });
      expect(b1.content).toMatchObject({ request_id: 'RSR-0001' });
      expect(await bob.offersReset()).toBe(false);
      // Bob asking for the reset changes nothing for Alice.
      expect((await bob.call(RESET_TOOL_NAME, {})).errorCode).toBe('unknown_tool');
      const a3 = await alice.call('create_restock_request', { sku: 'SKU-2003', quantity: 30 });
      expect(a3.content).toMatchObject({ request_id: 'RSR-0003' });
    } finally {
      await alice.close();
      await bob.close();
    }
  });
});
