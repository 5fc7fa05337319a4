/**
 * Issue 11 §1: with a live model, a run against server-everything's tools works — the model is
 * shown that server's tools, its call reaches the server, and the result goes back to the model.
 * The model is the OpenAI client against a wire-level stub on 127.0.0.1 (lib/models/testing).
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../harness/config';
import { isToolRecord } from '../harness/types';
import { liveModelFactory } from '../models/create-model-client';
import { ProviderStub } from '../models/testing/stub-server';
import { createStockroomAgent } from '../stockroom/agent';
import { defaultDatasetDir, loadDataset } from '../stockroom/dataset/load-dataset';
import { createExecutor } from './client/create-executor';
import { REPO_ROOT } from './shared/paths';

const EVERYTHING = path.join(REPO_ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const FAST = { retries: 1, initialDelayMs: 1, maxDelayMs: 2, timeoutMs: 5_000, random: () => 0 };

describe('a live model driving server-everything over stdio', () => {
  let stub: ProviderStub;
  beforeAll(async () => {
    stub = await ProviderStub.start('openai');
  });
  afterAll(() => stub?.close());

  it("shows the model the server's tools, runs its echo call there and returns the result to the model", async () => {
    stub.enqueue(
      { calls: [{ id: 'call_echo', name: 'echo', args: { message: 'hello from the model' } }], usage: { input: 400, output: 15 } },
      { text: 'The server echoed my message.', usage: { input: 500, output: 9 } },
    );
    const dataset = loadDataset(defaultDatasetDir());
    const config = resolveConfig({ model: 'openai:gpt-test', modelBaseUrl: stub.baseURL, transport: 'mcp-stdio' });
    const executor = await createExecutor({ transport: 'mcp-stdio', dataset, weaknesses: [], mcpCommand: [process.execPath, EVERYTHING, 'stdio'] });
    const agent = await createStockroomAgent({ dataset, config, executor, liveModel: liveModelFactory(config, { env: { OPENAI_API_KEY: 'sk-test' }, resilience: FAST }) });
    try {
      const run = await agent.run('Echo "hello from the model" through the tool server.');
      expect(run).toMatchObject({ modelId: 'openai:gpt-test', mode: 'live', terminationReason: 'COMPLETED', finalAnswer: 'The server echoed my message.' });
      const [call] = run.trajectory.filter(isToolRecord);
      expect(call).toMatchObject({ name: 'echo', executed: true });
      expect(JSON.stringify(call?.resultContent)).toContain('hello from the model');

      // The first request offered the model server-everything's tools (not the Stockroom ones).
      const offered = (stub.requests[0]?.body as { tools: { function: { name: string } }[] }).tools.map((t) => t.function.name);
      expect(offered).toContain('echo');
      expect(offered).not.toContain('create_restock_request');
      // The second carried the server's answer back under the model's own call id.
      const sent = (stub.requests[1]?.body as { messages: { role: string; tool_call_id?: string; content: string }[] }).messages;
      expect(sent.find((m) => m.role === 'tool' && m.tool_call_id === 'call_echo')?.content).toContain('hello from the model');
    } finally {
      await agent.close();
    }
  }, 60_000);
});
