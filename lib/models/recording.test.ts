import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig, type HarnessConfig } from '../harness/config';
import { isGuardEvent, type RunResult, type TrajectoryStep } from '../harness/types';
import { createStockroomAgent } from '../stockroom/agent';
import { defaultDatasetDir, loadDataset } from '../stockroom/dataset/load-dataset';
import { liveModelFactory } from './create-model-client';
import { startModelServer, type ModelServer } from './model-server/server';
import { ReplayModelClient } from './recording';
import { resetBreakers } from './resilience';

const dataset = loadDataset(defaultDatasetDir());
const QUERY = 'Do you sell ratchet lashing straps?';
/** An order on the legacy shard: under naive_retry the tool fails where it used to succeed (its spec is unchanged). */
const ORDER_QUERY = 'What is the status of order ORD-8001?';

/** The trajectory without wall-clock figures, for comparing a replay with its recording. */
// What was measured (latency, recorded times) differs between two runs of the same thing; the rest may not.
const shape = (t: readonly TrajectoryStep[]) => t.map((s) => ({ ...s, ...('latencyMs' in s ? { latencyMs: 0 } : {}), time: undefined }));

describe('recorded exchanges replayed against a changed harness', () => {
  let server: ModelServer;
  let recorded: RunResult;
  const base = () => ({ model: 'openai-compatible:stockroom-fake', modelBaseUrl: server.url });
  const record = async (query: string) => {
    const config = resolveConfig(base());
    const agent = await createStockroomAgent({ dataset, config, liveModel: liveModelFactory(config, { env: {} }) });
    const run = await agent.run(query);
    await agent.close();
    return run;
  };

  beforeAll(async () => {
    resetBreakers();
    server = await startModelServer({ dataset });
    recorded = await record(QUERY);
  });
  afterAll(() => server.close());

  const replay = async (overrides: Partial<HarnessConfig>, live = false, query = QUERY) => {
    const config = resolveConfig(base(), overrides);
    const liveModel = live ? liveModelFactory(config, { env: {} })!({ caseId: null, weaknesses: config.weaknesses }) : null;
    const model = new ReplayModelClient(recorded, { live: liveModel, recordedMaxTokens: resolveConfig(base()).maxTokens });
    const agent = await createStockroomAgent({ dataset, config });
    const run = await agent.run(query, null, { model });
    await agent.close();
    return run;
  };

  it('records every live call with its request digest and full response', () => {
    expect(recorded.exchanges).toHaveLength(recorded.usage.modelCalls);
    expect(recorded.exchanges![0]).toMatchObject({ callIndex: 0, step: 1, requestDigest: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(JSON.stringify(recorded.exchanges)).not.toMatch(/not-needed|sk-/); // no key in the record
    // Beside the mapped response, the body the server sent, as it sent it (a chat completion here).
    for (const e of recorded.exchanges!) {
      const raw = e.raw as { object?: string; choices?: { message: { content: string | null; tool_calls?: unknown[] } }[]; usage?: { prompt_tokens: number } };
      const mapped = e.response as { text: string | null; toolCalls: unknown[]; inputTokens: number };
      expect(raw.object).toBe('chat.completion');
      expect(raw.choices?.[0]?.message.content ?? null).toBe(mapped.text);
      expect(raw.choices?.[0]?.message.tool_calls ?? []).toHaveLength(mapped.toolCalls.length);
      expect(raw.usage?.prompt_tokens).toBe(mapped.inputTokens);
    }
  });

  it('with nothing changed, reproduces the run from the recording', async () => {
    const run = await replay({});
    expect(run.terminationReason).toBe(recorded.terminationReason);
    expect(run.finalAnswer).toBe(recorded.finalAnswer);
    expect(shape(run.trajectory)).toEqual(shape(recorded.trajectory));
  });

  it('a changed tool description diverges at the first call, naming the tool', async () => {
    const run = await replay({ weaknesses: ['ambiguous_tool_desc'] });
    expect(run.terminationReason).toBe('DIVERGED');
    const event = run.trajectory.find(isGuardEvent)!;
    expect(event).toMatchObject({ step: 1, guard: 'replay', reason: 'DIVERGED' });
    expect(event.detail).toMatch(/tool search_products description: "Find catalogue products/);
  });

  it('a changed tool result (the legacy shard now fails) diverges at the step that first sees it, showing the differing message', async () => {
    recorded = await record(ORDER_QUERY);
    const run = await replay({ weaknesses: ['naive_retry'] }, false, ORDER_QUERY);
    expect(run.terminationReason).toBe('DIVERGED');
    const event = run.trajectory.find(isGuardEvent)!;
    expect(event.step).toBe(2);
    expect(event.detail).toMatch(/message 3:/);
  });

  it('with a live model chosen, continues live from the divergence and records where it parted', async () => {
    recorded = await record(ORDER_QUERY);
    const run = await replay({ weaknesses: ['naive_retry'] }, true, ORDER_QUERY);
    expect(run.terminationReason).not.toBe('DIVERGED');
    expect(run.usage.modelCalls).toBeGreaterThan(recorded.usage.modelCalls); // it went on, live, past the recording
    expect(run.trajectory.find(isGuardEvent)).toMatchObject({ step: 2, guard: 'replay', reason: 'DIVERGED', detail: expect.stringMatching(/^continued live: /) });
  });
});
