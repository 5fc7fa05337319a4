/**
 * Issue 24 §2: a tool server that dies is reported as dead, at once — over HTTP as over stdio. A
 * real third-party server process crashes during a call; the call fails with a typed error naming
 * the server (not a timeout: the request timeout here is a minute, longer than the test may take),
 * the next call says the same instead of "fetch failed", a run ends TOOL_ERROR naming the server,
 * and a write whose answer was lost is `unknown` in the journal.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../harness/config';
import { scriptedModel } from '../../harness/testing/scripted-model';
import { JournaledExecutor } from '../../governance/journaled-executor';
import { MemoryJournalStore } from '../../governance/memory-journal-store';
import { createStockroomAgent } from '../../stockroom/agent';
import { loadDataset } from '../../stockroom/dataset/load-dataset';
import { McpConnectionLostError } from './connection-lost';
import { createExecutor } from './create-executor';
import type { McpToolExecutor } from './mcp-executor';
import { startStrangerHttp, strangerCommand, type StrangerHttp } from '../testing/stranger-process';
import { hasOwn, OWN_DATASET_DIR } from '../test-support';

const MINUTE = 60_000;

describe.skipIf(!hasOwn)('a tool server that dies during a call', () => {
  const dataset = hasOwn ? loadDataset(OWN_DATASET_DIR) : (undefined as never);
  let http: StrangerHttp | undefined;
  afterEach(async () => {
    await http?.stop();
    http = undefined;
  });

  const open: Record<string, () => Promise<McpToolExecutor>> = {
    stdio: async () => (await createExecutor({ transport: 'mcp-stdio', dataset, weaknesses: [], mcpCommand: strangerCommand(), mcpServerId: 'fragile' })) as McpToolExecutor,
    http: async () => {
      http = await startStrangerHttp();
      return (await createExecutor({ transport: 'mcp-http', dataset, weaknesses: [], mcpUrl: http.url, mcpServerId: 'fragile' })) as McpToolExecutor;
    },
  };

  it.each(Object.keys(open))('is a typed error naming the server, not a timeout (%s)', async (transport) => {
    const executor = await open[transport]!();
    try {
      // Long enough that only noticing the death can end the call before the test's own limit.
      (executor as unknown as { requestTimeoutMs: number }).requestTimeoutMs = MINUTE;
      const error = await executor.call('die', {}).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(McpConnectionLostError);
      expect((error as McpConnectionLostError).server).toBe('fragile');
      expect((error as Error).message).toMatch(/the MCP server 'fragile' is gone/);
      // The next call is refused the same way, at once.
      const next = await executor.call('wipe_count', {}).catch((e: unknown) => e);
      expect(next).toBeInstanceOf(McpConnectionLostError);
      expect((next as Error).message).not.toMatch(/fetch failed$/);
    } finally {
      await executor.close();
    }
  }, 20_000);

  it.each(Object.keys(open))('ends the run TOOL_ERROR naming the server (%s)', async (transport) => {
    const executor = await open[transport]!();
    (executor as unknown as { requestTimeoutMs: number }).requestTimeoutMs = MINUTE;
    const agent = await createStockroomAgent({
      dataset,
      config: resolveConfig({ transport: transport === 'http' ? 'mcp-http' : 'mcp-stdio' }),
      executor,
    });
    try {
      const run = await agent.run('crash it', null, { model: scriptedModel([{ calls: [['die', {}]] }, { text: 'carried on' }]) });
      expect(run.terminationReason).toBe('TOOL_ERROR');
      expect(run.finalAnswer).not.toBe('carried on');
      const guard = run.trajectory.find((s) => s.kind === 'guard');
      expect(guard && 'detail' in guard ? guard.detail : '').toMatch(/'fragile' is gone/);
    } finally {
      await agent.close();
    }
  }, 20_000);

  it.each(Object.keys(open))('leaves a write whose answer was lost unknown in the journal (%s)', async (transport) => {
    const executor = await open[transport]!();
    (executor as unknown as { requestTimeoutMs: number }).requestTimeoutMs = MINUTE;
    const store = new MemoryJournalStore();
    const journaled = new JournaledExecutor(executor, { store, runId: 'run_1', isWrite: (t) => t === 'die', toolVersion: () => '1' });
    try {
      const call = { toolUseId: 'tu_1', name: 'die', arguments: {} };
      const key = journaled.operationKey(call)!;
      const result = await journaled.call('die', {}, { operationKey: key });
      expect(result.errorCode).toBe('effect_unknown');
      expect((await store.get(key))?.status).toBe('unknown');
    } finally {
      await journaled.close();
    }
  }, 20_000);

  it('reports a server that refuses connections as gone, naming it', async () => {
    const executor = await open.http!();
    await http!.stop();
    const error = await executor.call('wipe_count', {}).catch((e: unknown) => e);
    await executor.close();
    expect(error).toBeInstanceOf(McpConnectionLostError);
    expect((error as Error).message).toMatch(/'fragile' is gone over mcp-http/);
  }, 20_000);
});
