/**
 * Issue 24 §1: a stranger's server is never acted on by its tool names. A third-party server (a
 * real child process) lists a destructive `reset_session_state`; the harness must never call it —
 * over stdio or HTTP, even when the stranger names itself like our server — and the model sees it
 * as one of the server's tools like any other.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../harness/config';
import { createStockroomAgent } from '../stockroom/agent';
import { loadDataset } from '../stockroom/dataset/load-dataset';
import { createExecutor } from './client/create-executor';
import type { McpToolExecutor } from './client/mcp-executor';
import { STOCKROOM_SERVER_INFO } from './shared/protocol';
import { startStrangerHttp, strangerCommand, type StrangerHttp } from './testing/stranger-process';
import { hasOwn, OWN_DATASET_DIR } from './test-support';

async function wipes(executor: McpToolExecutor): Promise<number> {
  const result = await executor.call('wipe_count', {});
  return (result.content as { wipes: number }).wipes;
}

// One stranger over HTTP for the whole file (a real child process), and the course dataset.
const dataset = hasOwn ? loadDataset(OWN_DATASET_DIR) : (undefined as never);
let http: StrangerHttp;
beforeAll(async () => {
  if (hasOwn) http = await startStrangerHttp();
});
afterAll(async () => {
  await http?.stop();
});

describe.skipIf(!hasOwn)("a stranger's reset_session_state", () => {

  const cases: [string, () => Promise<McpToolExecutor>][] = [
    ['stdio', async () => (await createExecutor({ transport: 'mcp-stdio', dataset, weaknesses: [], mcpCommand: strangerCommand() })) as McpToolExecutor],
    ['http', async () => (await createExecutor({ transport: 'mcp-http', dataset, weaknesses: [], mcpUrl: http.url })) as McpToolExecutor],
    [
      'stdio, naming itself the Stockroom server',
      async () => (await createExecutor({ transport: 'mcp-stdio', dataset, weaknesses: [], mcpCommand: strangerCommand(STOCKROOM_SERVER_INFO.name) })) as McpToolExecutor,
    ],
  ];

  it.each(cases)('is never called before runs (%s), and the model is shown it', async (_label, open) => {
    const executor = await open();
    const agent = await createStockroomAgent({ dataset, config: resolveConfig({ transport: 'mcp-stdio' }), executor });
    try {
      const before = await wipes(executor);
      await agent.run('how many SKU-2001 are in stock?', null);
      await agent.run('where is SKU-2001 stored?', null);
      expect(await wipes(executor)).toBe(before);
      expect(await executor.offersReset()).toBe(false);
      expect(executor.isOwnServer()).toBe(false);
      // Not hidden: it is the stranger's tool, and the model (and the policy) decide about it.
      expect((await executor.listSpecs()).map((s) => s.name)).toContain('reset_session_state');
    } finally {
      await agent.close();
    }
  }, 60_000);

  it("still resets the harness's own server before each run", async () => {
    const executor = (await createExecutor({ transport: 'mcp-memory', dataset, weaknesses: [] })) as McpToolExecutor;
    try {
      expect(executor.isOwnServer()).toBe(true);
      expect(await executor.offersReset()).toBe(true);
      expect((await executor.listSpecs()).map((s) => s.name)).not.toContain('reset_session_state');
    } finally {
      await executor.close();
    }
  });
});

describe.skipIf(!hasOwn)('what a stranger’s server is sent in the handshake (issue 40)', () => {

  it.each([
    ['stdio', () => createExecutor({ transport: 'mcp-stdio', dataset, weaknesses: [], mcpCommand: strangerCommand() })],
    ['http', () => createExecutor({ transport: 'mcp-http', dataset, weaknesses: [], mcpUrl: http.url })],
  ] as const)('no experimental capability of ours reaches a third-party server (%s)', async (_label, open) => {
    const executor = (await open()) as McpToolExecutor;
    try {
      const sent = (await executor.call('client_capabilities', {})).content as Record<string, unknown> | null;
      expect(sent).not.toBeNull();
      expect(sent).not.toHaveProperty('experimental');
    } finally {
      await executor.close();
    }
  });
});
