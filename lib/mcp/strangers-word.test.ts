/**
 * Issue 40: a third-party MCP server held to its word, against the stranger server run as a real
 * child process. Observed before: a tool that declared an outputSchema and returned
 * `temperature: "warm"` against `number`, or no structured content at all, reached the model as a
 * success; a tool added during a call and announced only after its result (over streamable HTTP the
 * list_changed notification travels on another stream) came back `unknown_tool` on the next model
 * call; progress notifications were handed to a live observer and then lost, so a finished run's
 * replay showed none.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../harness/config';
import { scriptedModel } from '../harness/testing/scripted-model';
import type { ToolRecord } from '../harness/types';
import { MAX_STORED_TOOL_PROGRESS } from '../harness/tunables';
import { getRunOrThrow, getRunSteps } from '../db/runs/runs-read';
import { saveRun } from '../db/runs/runs-write';
import { makeMeta } from '../db/testing/run-fixtures';
import { testProviders, type TestDatabase } from '../db/testing/test-databases';
import { createStockroomAgent } from '../stockroom/agent';
import { loadDataset } from '../stockroom/dataset/load-dataset';
import { createExecutor } from './client/create-executor';
import type { McpToolExecutor } from './client/mcp-executor';
import { OUTPUT_SCHEMA_VIOLATION } from './client/output-schema';
import { startStrangerHttp, strangerCommand, type StrangerHttp } from './testing/stranger-process';
import { hasOwn, OWN_DATASET_DIR } from './test-support';

const records = (trajectory: readonly { kind: string }[]) => trajectory.filter((s): s is ToolRecord => s.kind === 'tool_call');
const sqlite = (await testProviders()).find((p) => p.name === 'sqlite')!;

const dataset = hasOwn ? loadDataset(OWN_DATASET_DIR) : (undefined as never);
let http: StrangerHttp;
let t: TestDatabase;
beforeAll(async () => {
  if (!hasOwn) return;
  http = await startStrangerHttp();
  t = await sqlite.create();
});
afterAll(async () => {
  await http?.stop();
  await t?.drop();
});

const transports = [
  ['stdio', () => createExecutor({ transport: 'mcp-stdio', dataset, weaknesses: [], mcpCommand: strangerCommand(), mcpServerId: 'stranger' })],
  ['http', () => createExecutor({ transport: 'mcp-http', dataset, weaknesses: [], mcpUrl: http.url, mcpServerId: 'stranger' })],
] as const;

describe.skipIf(!hasOwn)('a stranger’s outputSchema, enforced', () => {
  it.each(transports)('turns a wrong type and a missing structured content into tool errors the model reads (%s)', async (_label, open) => {
    const executor = (await open()) as McpToolExecutor;
    try {
      const ok = await executor.call('weather', { answer: 'ok' });
      expect(ok).toMatchObject({ isError: false, content: { temperature: 12, sky: 'clear' } });
      expect(ok.schemaViolation).toBeUndefined();

      const wrong = await executor.call('weather', { answer: 'wrong' });
      expect(wrong.isError).toBe(true);
      expect(wrong.errorCode).toBe(OUTPUT_SCHEMA_VIOLATION);
      expect(wrong.schemaViolation).toMatch(/temperature.*number/);
      expect(JSON.stringify(wrong.content)).not.toContain('warm');

      const none = await executor.call('weather', { answer: 'none' });
      expect(none).toMatchObject({ isError: true, errorCode: OUTPUT_SCHEMA_VIOLATION });
      expect(none.schemaViolation).toContain('no structured content');
    } finally {
      await executor.close();
    }
  }, 60_000);

  it('records the violation on the step, and replay reads it back', async () => {
    const executor = (await transports[0][1]()) as McpToolExecutor;
    const agent = await createStockroomAgent({ dataset, config: resolveConfig({ transport: 'mcp-stdio' }), executor });
    try {
      const run = await agent.run('what is the weather on the dock?', null, {
        model: scriptedModel([{ calls: [['weather', { answer: 'wrong' }]] }, { text: 'no idea' }]),
      });
      const [weather] = records(run.trajectory);
      expect(weather).toMatchObject({ isError: true, errorCode: OUTPUT_SCHEMA_VIOLATION });
      expect(weather?.schemaViolation).toMatch(/temperature/);

      const id = await saveRun(run, makeMeta({ transport: 'mcp-stdio' }), t.db);
      const page = await getRunSteps(id, { fromIndex: 0, toIndex: 50 }, t.db);
      const step = page.items.find((s) => s.kind === 'tool_call');
      expect(step).toMatchObject({ errorCode: OUTPUT_SCHEMA_VIOLATION, schemaViolation: weather!.schemaViolation });
      expect(records((await getRunOrThrow(id, t.db)).run.trajectory)[0]?.schemaViolation).toBe(weather!.schemaViolation);
    } finally {
      await agent.close();
    }
  }, 60_000);
});

describe.skipIf(!hasOwn)('a stranger’s list_changed, applied before the next model call', () => {
  it.each(transports)('offers the next model call a tool added during the last call, announced late (%s)', async (_label, open) => {
    const executor = (await open()) as McpToolExecutor;
    const agent = await createStockroomAgent({ dataset, config: resolveConfig({ transport: 'mcp-stdio' }), executor });
    try {
      const run = await agent.run('grow the server', null, {
        model: scriptedModel([{ calls: [['grow_quietly', {}]] }, { calls: [['quiet_tool', { note: 'hello' }]] }, { text: 'done' }]),
      });
      const quiet = records(run.trajectory).find((r) => r.name === 'quiet_tool');
      expect(quiet?.errorCode).toBeNull();
      expect(quiet?.resultContent).toBe('quiet tool got hello');
      expect(run.terminationReason).toBe('COMPLETED');
    } finally {
      await agent.close();
    }
  }, 60_000);
});

describe.skipIf(!hasOwn)('a stranger’s progress, stored', () => {
  it(`keeps the last ${MAX_STORED_TOOL_PROGRESS} progress notifications on the tool step, through a save and a replay`, async () => {
    const executor = (await transports[0][1]()) as McpToolExecutor;
    const agent = await createStockroomAgent({ dataset, config: resolveConfig({ transport: 'mcp-stdio' }), executor });
    try {
      const steps = MAX_STORED_TOOL_PROGRESS + 5;
      const run = await agent.run('be slow', null, { model: scriptedModel([{ calls: [['slow', { steps }]] }, { text: 'done' }]) });
      const [slow] = records(run.trajectory);
      expect(slow?.errorCode).toBeNull();
      expect(slow?.progress).toHaveLength(MAX_STORED_TOOL_PROGRESS);
      expect(slow?.progress?.at(-1)).toEqual({ progress: steps, total: steps, message: `step ${steps}` });
      expect(slow?.progress?.[0]?.progress).toBe(steps - MAX_STORED_TOOL_PROGRESS + 1);

      const id = await saveRun(run, makeMeta({ transport: 'mcp-stdio' }), t.db);
      const page = await getRunSteps(id, { fromIndex: 0, toIndex: 50 }, t.db);
      expect(page.items.find((s) => s.kind === 'tool_call')).toMatchObject({ progress: slow!.progress });
      const quick = await agent.run('count', null, { model: scriptedModel([{ calls: [['wipe_count', {}]] }, { text: 'done' }]) });
      expect(records(quick.trajectory)[0]).not.toHaveProperty('progress');
    } finally {
      await agent.close();
    }
  }, 60_000);
});
