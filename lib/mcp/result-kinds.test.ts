/**
 * Issue 24 §4: every kind of tool result, from a real third-party server process. Observed before:
 * with a text part, images, audio, resource links and embedded resources were dropped; an
 * image-only result (30 KB) reached the model as 40,063 characters of base64. Now the model reads
 * a line per part (`[image image/png, 30 KB]`, the link's URI, the resource's text), the payload
 * size counts that text, and the whole parts are stored with the run (SQLite and PostgreSQL) for
 * replay.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../harness/config';
import { scriptedModel } from '../harness/testing/scripted-model';
import type { RunResult, ToolRecord } from '../harness/types';
import { getRunOrThrow, getRunSteps, getToolMediaAt } from '../db/runs/runs-read';
import { saveRun } from '../db/runs/runs-write';
import { makeMeta } from '../db/testing/run-fixtures';
import { testProviders } from '../db/testing/test-databases';
import { createStockroomAgent } from '../stockroom/agent';
import { loadDataset } from '../stockroom/dataset/load-dataset';
import { createExecutor } from './client/create-executor';
import { strangerCommand } from './testing/stranger-process';
import { hasOwn, OWN_DATASET_DIR } from './test-support';

const providers = await testProviders();

describe.skipIf(!hasOwn)('tool results of every kind from a third-party server', () => {
  let run: RunResult;
  const calls = (name: string) => run.trajectory.filter((s): s is ToolRecord => s.kind === 'tool_call' && s.name === name);

  beforeAll(async () => {
    const dataset = loadDataset(OWN_DATASET_DIR);
    const executor = await createExecutor({ transport: 'mcp-stdio', dataset, weaknesses: [], mcpCommand: strangerCommand() });
    const agent = await createStockroomAgent({ dataset, config: resolveConfig({ transport: 'mcp-stdio' }), executor });
    try {
      run = await agent.run('show me shelf B-12', null, { model: scriptedModel([{ calls: [['snapshot', {}], ['everything_kinds', {}]] }, { text: 'done' }]) });
    } finally {
      await agent.close();
    }
  }, 60_000);

  it('gives the model a placeholder for an image-only result, not 40,000 characters of base64', () => {
    const [snapshot] = calls('snapshot');
    expect(snapshot?.resultContent).toBe('[image image/png, 30 KB]');
    expect(snapshot?.payloadChars).toBeLessThan(100);
    expect(snapshot?.media).toEqual([expect.objectContaining({ type: 'image', mimeType: 'image/png' })]);
    expect(((snapshot?.media?.[0] as { data: string }).data ?? '').length).toBeGreaterThan(40_000);
  });

  it('keeps every part beside the text: image and audio described, the link by its URI, the resource by its text', () => {
    const [mixed] = calls('everything_kinds');
    const text = mixed?.resultContent as string;
    expect(text).toContain('shelf B-12 report');
    expect(text).toContain('[image image/png, 30 KB]');
    expect(text).toContain('[audio audio/wav, 2 KB]');
    expect(text).toContain('[resource_link file:///reports/b12.pdf (b12.pdf, application/pdf)]');
    expect(text).toContain('[resource memo://shelf/b12 application/json]\n{"shelf":"B-12","bins":[1,2]}');
    expect(text).not.toMatch(/[A-Za-z0-9+/]{200}/);
    expect(mixed?.media?.map((p) => p.type)).toEqual(['image', 'audio', 'resource_link', 'resource']);
    // What the model read is what was sent in the conversation.
    const sent = JSON.stringify(run.modelInputs.at(-1)?.messages);
    expect(sent).toContain('[image image/png, 30 KB]');
    expect(sent.length).toBeLessThan(10_000);
  });

  describe.each(providers)('stored on $name', (provider) => {
    const test = provider.skipReason ? it.skip : it;
    test('keeps the whole parts with the run for replay, and exports them', async () => {
      const t = await provider.create();
      try {
        const id = await saveRun(run, makeMeta({}), t.db);
        const page = await getRunSteps(id, { fromIndex: 0, toIndex: 100 }, t.db);
        const snapshot = page.items.find((s) => s.kind === 'tool_call' && s.name === 'snapshot');
        expect(snapshot && 'hasMedia' in snapshot ? snapshot.hasMedia : null).toBe(true);
        const media = await getToolMediaAt(id, snapshot!.index, t.db);
        expect(media).toEqual(calls('snapshot')[0]?.media);
        expect((await getRunOrThrow(id, t.db)).run.trajectory).toEqual(run.trajectory);
      } finally {
        await t.drop();
      }
    }, 60_000);
  });
});
