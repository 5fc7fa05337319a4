/**
 * The offline model server streams (issue 40): the dashboard's live runs stream by default, and the
 * run behind openai-compatible:stockroom-fake must be the same run streamed or not (observed before:
 * the server answered `stream: true` with a 400).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../harness/config';
import { isModelTurn, type RunResult, type TrajectoryStep } from '../../harness/types';
import { createStockroomAgent } from '../../stockroom/agent';
import { defaultDatasetDir, loadDataset } from '../../stockroom/dataset/load-dataset';
import { liveModelFactory } from '../create-model-client';
import { resetBreakers } from '../resilience';
import { startModelServer, type ModelServer } from './server';

const dataset = loadDataset(defaultDatasetDir());
const shape = (t: readonly TrajectoryStep[]) =>
  t.map((s) => ({ ...s, ...('latencyMs' in s ? { latencyMs: 0 } : {}), time: undefined, ...('timeToFirstTokenMs' in s ? { timeToFirstTokenMs: undefined } : {}) }));

describe('the offline model server, streamed', () => {
  let server: ModelServer;
  beforeAll(async () => {
    resetBreakers();
    server = await startModelServer({ dataset });
  });
  afterAll(() => server.close());

  const run = async (stream: boolean): Promise<RunResult> => {
    const config = resolveConfig({ model: 'openai-compatible:stockroom-fake', modelBaseUrl: server.url, stream });
    const agent = await createStockroomAgent({ dataset, config, liveModel: liveModelFactory(config, { env: {} }) });
    try {
      return await agent.run('How many SKU-1001 are in stock?');
    } finally {
      await agent.close();
    }
  };

  it('gives the same run streamed as whole, with its usage (the usage chunk was asked for) and a time to first token', async () => {
    const streamed = await run(true);
    const whole = await run(false);
    expect(streamed.terminationReason).toBe('COMPLETED');
    expect(shape(streamed.trajectory)).toEqual(shape(whole.trajectory));
    expect(streamed.usage).toEqual(whole.usage);
    for (const t of streamed.trajectory.filter(isModelTurn)) {
      expect(t.inputTokens).toBeGreaterThan(0);
      expect(t.timeToFirstTokenMs).toEqual(expect.any(Number));
    }
  });

  it('streams chat.completion.chunk events ending in [DONE], with the usage chunk only when asked for', async () => {
    const ask = async (includeUsage: boolean) => {
      const res = await fetch(`${server.url}/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'stockroom-fake', stream: true, ...(includeUsage ? { stream_options: { include_usage: true } } : {}), messages: [{ role: 'user', content: 'hello' }] }),
      });
      expect(res.headers.get('content-type')).toBe('text/event-stream');
      return (await res.text()).split('\n\n').filter(Boolean);
    };
    const withUsage = await ask(true);
    expect(withUsage.at(-1)).toBe('data: [DONE]');
    const last = JSON.parse(withUsage.at(-2)!.slice('data: '.length)) as { choices: unknown[]; usage: { prompt_tokens: number } };
    expect(last.choices).toEqual([]);
    expect(last.usage.prompt_tokens).toBeGreaterThan(0);
    const without = await ask(false);
    expect(without.some((e) => e.includes('"prompt_tokens"'))).toBe(false);
    expect(JSON.parse(without[0]!.slice('data: '.length))).toMatchObject({ object: 'chat.completion.chunk', choices: [{ delta: { role: 'assistant' } }] });
  });
});
