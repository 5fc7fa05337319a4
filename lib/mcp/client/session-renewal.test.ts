/**
 * A server that ends the client's session (issue 36's follow-up). The MCP spec says a client answered
 * HTTP 404 for its `Mcp-Session-Id` MUST start a new session; before, our executor failed the next
 * call with "Session not found" when the server had reaped the session after its idle limit (a run
 * quiet while its model was slow) — observed on the CLI's HTTP server and our in-process one. Here a
 * real HTTP server on a loopback socket reaps the session (its session table's clock driven ahead, no
 * sleeping), and the executor opens a new session as the first was settled, re-reads the tools,
 * confirms the flags, sends the call once more and records that it did; a server that answers 404
 * again is a clear error naming it; a lookup never asks a new session about an old session's write.
 */
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { ToolSessionRenewal } from '../../harness/executor';
import type { ModelClient } from '../../harness/model/client';
import { scriptedModel, type TurnSpec } from '../../harness/testing/scripted-model';
import { resolveConfig } from '../../harness/config';
import type { TrajectoryStep } from '../../harness/types';
import { createStockroomAgent } from '../../stockroom/agent';
import { loadDataset } from '../../stockroom/dataset/load-dataset';
import { SESSION_IDLE_MS, startStockroomHttpServer, type RunningHttpServer } from '../server/http-server';
import { createExecutor } from './create-executor';
import { McpToolExecutor } from './mcp-executor';
import { McpSessionError } from './session-renewal';
import { httpConnection } from './connections';
import { hasOwn, OWN_DATASET_DIR } from '../test-support';

const SKU = 'SKU-2001';

/** A time past every session's idle limit: the table reaps as if the run had sat quiet that long. */
const pastIdleLimit = () => Date.now() + SESSION_IDLE_MS + 1;

/** A model that waits for `between(turn)` before answering each turn after the first (a slow model, an approval pending). */
function slowModel(turns: readonly TurnSpec[], between: (turn: number) => Promise<void>): ModelClient {
  const inner = scriptedModel(turns);
  let turn = 0;
  return {
    modelId: inner.modelId,
    converse: async (req) => {
      turn += 1;
      if (turn > 1) await between(turn);
      return inner.converse(req);
    },
  };
}

describe.skipIf(!hasOwn)('a server that ends the session (a real HTTP server on a socket)', () => {
  const dataset = hasOwn ? loadDataset(OWN_DATASET_DIR) : (undefined as never);
  let running: RunningHttpServer | undefined;
  let executor: McpToolExecutor | undefined;
  afterEach(async () => {
    await executor?.close();
    await running?.close();
    executor = undefined;
    running = undefined;
  });

  const start = async (weaknesses: Parameters<typeof startStockroomHttpServer>[0]['weaknesses'] = []) => {
    running = await startStockroomHttpServer({ dataset, weaknesses, port: 0, log: () => {} });
    executor = (await createExecutor({ transport: 'mcp-http', dataset, weaknesses: [...weaknesses], mcpUrl: running.url, mcpServerId: 'inventory' })) as McpToolExecutor;
    return { running, executor };
  };

  it('answers the call after the server reaped its session: a new session, the same tools, the flags confirmed (observed: Session not found)', async () => {
    const { running, executor } = await start(['oversized_payload']);
    const tools = await executor.listTools();
    const first = await executor.call('get_stock_level', { sku: SKU });
    expect(running.reapIdleSessions(pastIdleLimit())).toBe(1);

    const renewals: ToolSessionRenewal[] = [];
    const second = await executor.call('get_stock_level', { sku: SKU }, { onSessionRenewed: (r) => renewals.push(r) });
    expect(second).toEqual(first);
    expect(await executor.listTools()).toEqual(tools);
    expect(running.sessionCount()).toBe(1);
    expect(renewals).toHaveLength(1);
    expect(renewals[0]).toMatchObject({ server: 'inventory', reason: 'session_ended' });
    expect(renewals[0]!.detail).toMatch(/HTTP 404 for the session when tools\/call get_stock_level was sent/);
    expect(renewals[0]!.detail).toMatch(/tool list re-read, unchanged/);
    expect(renewals[0]!.detail).toMatch(/weakness flags \[oversized_payload\] confirmed again/);
    // Told once: the next call opened no session.
    await executor.call('get_stock_level', { sku: SKU }, { onSessionRenewed: (r) => renewals.push(r) });
    expect(renewals).toHaveLength(1);
  });

  it('completes a run whose session was reaped while its model was slow, and records it at the call', async () => {
    const { running, executor } = await start();
    const agent = await createStockroomAgent({ dataset, config: resolveConfig({ transport: 'mcp-http' }), executor });
    const tools = await executor.listTools();
    let reaped = 0;
    const model = slowModel(
      [{ calls: [['get_stock_level', { sku: SKU }]] }, { calls: [['get_stock_level', { sku: 'SKU-2002' }]] }, { text: 'both counted' }],
      async (turn) => {
        if (turn === 2) reaped = running.reapIdleSessions(pastIdleLimit());
      },
    );
    const run = await agent.run('count two', null, { model });
    expect(reaped).toBe(1);
    expect(run.terminationReason).toBe('COMPLETED');
    expect(run.finalAnswer).toBe('both counted');
    const kinds = run.trajectory.filter((s) => s.kind !== 'model_turn').map((s) => s.kind);
    expect(kinds).toEqual(['tool_call', 'tool_session', 'tool_call']);
    const renewal = run.trajectory.find((s): s is Extract<TrajectoryStep, { kind: 'tool_session' }> => s.kind === 'tool_session')!;
    const second = run.trajectory.filter((s) => s.kind === 'tool_call')[1] as Extract<TrajectoryStep, { kind: 'tool_call' }>;
    expect(renewal).toMatchObject({ step: second.step, toolUseId: second.toolUseId, name: 'get_stock_level', server: 'inventory', reason: 'session_ended' });
    expect(second.isError).toBe(false);
    expect(await executor.listTools()).toEqual(tools);
  });

  it('opens the new session at the next run\'s reset when the session was reaped between runs, and records it at that run\'s first call', async () => {
    // Our own server held for many runs (a worker's pool): quiet between two runs past the idle limit.
    running = await startStockroomHttpServer({ dataset, weaknesses: [], port: 0, offerReset: true, log: () => {} });
    executor = await McpToolExecutor.connect(httpConnection(running.url), { serverId: 'stockroom', ownServer: true, floatKeys: dataset.floatKeys });
    const agent = await createStockroomAgent({ dataset, config: resolveConfig({ transport: 'mcp-http' }), executor });
    const turns: TurnSpec[] = [{ calls: [['create_restock_request', { sku: SKU, quantity: 40 }]] }, { text: 'done' }];
    const first = await agent.run('restock', null, { model: scriptedModel(turns) });
    expect(running.reapIdleSessions(pastIdleLimit())).toBe(1);
    const second = await agent.run('restock', null, { model: scriptedModel(turns) });
    expect(second.terminationReason).toBe('COMPLETED');
    // The new session's environment was reset like any run's: the same first restock id.
    const restocks = [first, second].map((r) => r.trajectory.find((s) => s.kind === 'tool_call')!);
    expect((restocks[1] as { resultContent: unknown }).resultContent).toEqual((restocks[0] as { resultContent: unknown }).resultContent);
    expect(first.trajectory.some((s) => s.kind === 'tool_session')).toBe(false);
    const renewal = second.trajectory.find((s): s is Extract<TrajectoryStep, { kind: 'tool_session' }> => s.kind === 'tool_session');
    expect(renewal).toMatchObject({ step: 1, name: 'create_restock_request', server: 'stockroom', reason: 'session_ended' });
    expect(renewal?.detail).toMatch(/HTTP 404 for the session (at the run's reset|while the tool list was read)/);
    await agent.close();
    executor = undefined;
  });

  it('never asks a new session whether an old session applied a write (it would answer absent)', async () => {
    const { running, executor } = await start();
    const written = await executor.call('create_restock_request', { sku: SKU, quantity: 40 }, { operationKey: 'run-1:tu-1:create_restock_request:1' });
    expect(written.isError).toBe(false);
    expect(await executor.lookupOperation('create_restock_request', 'run-1:tu-1:create_restock_request:1')).toMatchObject({ sku: SKU });
    running.reapIdleSessions(pastIdleLimit());
    await executor.call('get_stock_level', { sku: SKU });
    await expect(executor.lookupOperation('create_restock_request', 'run-1:tu-1:create_restock_request:1')).rejects.toThrow(/cannot say whether it was applied/);
    // A write sent in the new session is one it can answer for.
    await executor.call('create_restock_request', { sku: 'SKU-2002', quantity: 40 }, { operationKey: 'run-1:tu-2:create_restock_request:1' });
    expect(await executor.lookupOperation('create_restock_request', 'run-1:tu-2:create_restock_request:1')).toMatchObject({ sku: 'SKU-2002' });
  });
});

/**
 * A real server in front of ours: it passes everything to `upstream`, or to another server once
 * switched (another server answering at the address, which knows none of the first one's sessions);
 * once armed it answers 404 itself to every tools/call bearing a session id (a server that keeps
 * losing sessions).
 */
async function frontServer(upstream: string): Promise<{ url: string; arm(): void; switchTo(upstream: string): void; authorizations: (string | undefined)[]; close(): Promise<void> }> {
  let armed = false;
  const authorizations: (string | undefined)[] = [];
  let target = new URL(upstream);
  const server: Server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      authorizations.push(req.headers.authorization);
      if (armed && req.headers['mcp-session-id'] && body.includes('"tools/call"')) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null }));
        return;
      }
      const out = request({ host: target.hostname, port: target.port, path: target.pathname, method: req.method, headers: req.headers }, (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      });
      out.on('error', () => res.destroy());
      out.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`,
    arm: () => {
      armed = true;
    },
    switchTo: (next) => {
      target = new URL(next);
    },
    authorizations,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe.skipIf(!hasOwn)('a server that answers 404 again in the new session, or lacks the flags', () => {
  const dataset = hasOwn ? loadDataset(OWN_DATASET_DIR) : (undefined as never);

  it('refuses a new session that does not state the flags the first confirmed, naming them, and every call after', async () => {
    // The address is answered by another server with other flags (as after a restart with other flags).
    const first = await startStockroomHttpServer({ dataset, weaknesses: ['naive_retry'], port: 0, log: () => {} });
    const other = await startStockroomHttpServer({ dataset, weaknesses: [], port: 0, log: () => {} });
    const front = await frontServer(first.url);
    const executor = (await createExecutor({ transport: 'mcp-http', dataset, weaknesses: ['naive_retry'], mcpUrl: front.url, mcpServerId: 'inventory' })) as McpToolExecutor;
    try {
      expect((await executor.call('get_stock_level', { sku: SKU })).isError).toBe(false);
      front.switchTo(other.url);
      const error = await executor.call('get_stock_level', { sku: SKU }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(McpSessionError);
      expect((error as Error).message).toMatch(/has weakness flags \[none\] but this run asks for \[naive_retry\]/);
      expect((error as Error).message).toContain(`the MCP server 'inventory' at ${front.url} ended the MCP session and it could not be re-established`);
      // Never on quietly with other flags: the executor refuses from now on, and the session it opened is ended.
      expect(await executor.call('get_stock_level', { sku: SKU }).catch((e: unknown) => e)).toBe(error);
      expect(other.sessionCount()).toBe(0);
    } finally {
      await executor.close();
      await front.close();
      await Promise.all([first.close(), other.close()]);
    }
  });

  it('is an error naming the server and its URL (no query values, no headers) and that the session could not be re-established', async () => {
    const running = await startStockroomHttpServer({ dataset, weaknesses: [], port: 0, log: () => {} });
    const front = await frontServer(running.url);
    const executor = (await createExecutor({
      transport: 'mcp-http',
      dataset,
      weaknesses: [],
      mcpUrl: `${front.url}?token=s3cret-query`,
      mcpHeaders: { authorization: 'Bearer s3cret-header' },
      mcpServerId: 'forgetful',
    })) as McpToolExecutor;
    try {
      expect((await executor.call('get_stock_level', { sku: SKU })).isError).toBe(false);
      front.arm();
      const renewals: ToolSessionRenewal[] = [];
      const error = await executor.call('get_stock_level', { sku: SKU }, { onSessionRenewed: (r) => renewals.push(r) }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(McpSessionError);
      const message = (error as Error).message;
      expect(message).toBe(
        `the MCP server 'forgetful' at ${front.url}?token=… ended the MCP session and it could not be re-established: tools/call get_stock_level was answered HTTP 404 in the new session too`,
      );
      expect(message).not.toMatch(/s3cret/);
      // The new session was opened (and is recorded), its requests with the headers the first sent.
      expect(renewals.map((r) => r.reason)).toEqual(['session_ended']);
      expect(new Set(front.authorizations)).toEqual(new Set(['Bearer s3cret-header']));
    } finally {
      await executor.close();
      await front.close();
      await running.close();
    }
  });

  it('ends the run TOOL_ERROR with that error, the new session recorded before it', async () => {
    const running = await startStockroomHttpServer({ dataset, weaknesses: [], port: 0, log: () => {} });
    const front = await frontServer(running.url);
    const executor = await McpToolExecutor.connect(httpConnection(front.url), { serverId: 'forgetful' });
    const agent = await createStockroomAgent({ dataset, config: resolveConfig({ transport: 'mcp-http' }), executor });
    try {
      front.arm();
      const run = await agent.run('count', null, { model: scriptedModel([{ calls: [['get_stock_level', { sku: SKU }]] }, { text: 'carried on' }]) });
      expect(run.terminationReason).toBe('TOOL_ERROR');
      const tail = run.trajectory.filter((s) => s.kind !== 'model_turn');
      expect(tail.map((s) => s.kind)).toEqual(['tool_session', 'guard']);
      expect(tail[1] && 'detail' in tail[1] ? tail[1].detail : '').toMatch(/'forgetful' at .* could not be re-established/);
    } finally {
      await agent.close();
      await front.close();
      await running.close();
    }
  });
});
