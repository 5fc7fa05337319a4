/**
 * The noisy fake model: temperature 0 is the fake model exactly; a stray turn picks another tool of
 * the same family, answers early, or blurs the answer; through the Stockroom agent the same seed
 * repeats every run and another seed does not.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../config';
import type { ModelResponse, ToolSpec } from '../../types';
import type { ConverseRequest, ModelClient } from '../client';
import { NOISY_EARLY_ANSWER, NoisyFakeModelClient } from './noisy-client';
import { loadDataset } from '../../../stockroom/dataset/load-dataset';
import { createStockroomAgent } from '../../../stockroom/agent';
import { loadGoldenFile } from '../../../eval/golden';
import { runSuite } from '../../../eval/suite';

const spec = (name: string): ToolSpec => ({ name, description: name, inputSchema: { type: 'object' } });
const request = (tools: string[]): ConverseRequest => ({ system: 's', messages: [], tools: tools.map(spec), maxTokens: 100 });

function stub(response: Partial<ModelResponse>): ModelClient {
  return {
    modelId: 'stub',
    converse: async () => ({ text: null, toolCalls: [], stopReason: 'end_turn', inputTokens: 10, outputTokens: 10, latencyMs: 20, modelId: 'stub', ...response }),
  };
}
/** A generator that answers the given numbers in turn. */
const draws = (...xs: number[]) => () => xs.shift() ?? 0;

describe('NoisyFakeModelClient', () => {
  const call = { toolUseId: 't0', name: 'get_order', arguments: { id: 'O-1' } };

  it('at temperature 0 returns the fake turn unchanged, whatever the draws', async () => {
    const inner = stub({ toolCalls: [call], stopReason: 'tool_use' });
    const noisy = new NoisyFakeModelClient({ inner, random: draws(0, 0, 0), temperature: 0 });
    const turn = await noisy.converse(request(['get_order', 'get_stock']));
    expect(turn).toEqual({ ...(await inner.converse(request([]))), modelId: noisy.modelId });
  });

  it('on a stray draw picks another tool of the same family, keeping the arguments', async () => {
    const noisy = new NoisyFakeModelClient({ inner: stub({ toolCalls: [call], stopReason: 'tool_use' }), random: draws(0, 0.1, 0), temperature: 1 });
    const turn = await noisy.converse(request(['get_order', 'list_orders', 'get_stock']));
    expect(turn.toolCalls).toEqual([{ ...call, name: 'get_stock' }]);
  });

  it('on the other stray kind answers early instead of calling a tool', async () => {
    const noisy = new NoisyFakeModelClient({ inner: stub({ toolCalls: [call], stopReason: 'tool_use' }), random: draws(0, 0.9), temperature: 1 });
    const turn = await noisy.converse(request(['get_order', 'get_stock']));
    expect(turn).toMatchObject({ text: NOISY_EARLY_ANSWER, toolCalls: [], stopReason: 'end_turn' });
  });

  it('blurs a final answer: its first sentence only, or its figures when it has one sentence', async () => {
    const two = new NoisyFakeModelClient({ inner: stub({ text: 'Order O-1 shipped. It arrives on day 3.' }), random: draws(0, 0), temperature: 1 });
    expect((await two.converse(request([]))).text).toBe('Order O-1 shipped.');
    const one = new NoisyFakeModelClient({ inner: stub({ text: 'We have 12 in stock' }), random: draws(0, 0), temperature: 1 });
    expect((await one.converse(request([]))).text).toBe('We have several in stock');
  });

  it('keeps the turn when the draw is above the stray chance (temperature 0.7 → 0.14)', async () => {
    const noisy = new NoisyFakeModelClient({ inner: stub({ text: 'A. B.' }), random: draws(0.15, 0), temperature: 0.7 });
    expect((await noisy.converse(request([]))).text).toBe('A. B.');
  });
});

describe('the noisy fake model through the Stockroom agent', () => {
  const dataset = loadDataset(path.resolve(import.meta.dirname, '../../../../data'));
  const golden = loadGoldenFile(dataset.goldenFiles[0]!);
  const cases = golden.cases.slice(0, 12);
  const suite = async (overrides: Parameters<typeof resolveConfig>[0]) => {
    const agent = await createStockroomAgent({ dataset, config: resolveConfig(overrides) });
    try {
      const result = await runSuite({ agent, cases, epochs: 3, judge: null });
      return result.results.map((r) => ({ id: r.golden.id, epoch: r.epoch, answer: r.run.finalAnswer, tools: r.scores.toolNames, reason: r.run.terminationReason }));
    } finally {
      await agent.close();
    }
  };

  it('repeats every run for the same seed, differs for another seed, and varies across epochs', async () => {
    const a = await suite({ model: 'fake-noisy', seed: 11, temperature: 1.5 });
    const b = await suite({ model: 'fake-noisy', seed: 11, temperature: 1.5 });
    const c = await suite({ model: 'fake-noisy', seed: 12, temperature: 1.5 });
    expect(b).toEqual(a);
    expect(c).not.toEqual(a);
    const ids = [...new Set(a.map((r) => r.id))];
    expect(ids.some((id) => new Set(a.filter((r) => r.id === id).map((r) => JSON.stringify([r.answer, r.tools]))).size > 1)).toBe(true);
  });

  it('at temperature 0 answers exactly as the fake model', async () => {
    const fake = await suite({});
    const noisy = await suite({ model: 'fake-noisy', seed: 5, temperature: 0 });
    expect(noisy).toEqual(fake);
  });

  it('refuses --temperature and --seed for any other model, naming the variable', () => {
    expect(() => resolveConfig({ temperature: 1 })).toThrow(/STOCKROOM_TEMPERATURE and STOCKROOM_SEED apply to the noisy fake model only/);
    expect(() => resolveConfig({ model: 'fake-noisy', temperature: 3 })).toThrow(/STOCKROOM_TEMPERATURE must be between 0 and 2/);
    expect(resolveConfig({ model: 'fake-noisy' })).toMatchObject({ mode: 'mock', model: 'fake-noisy' });
  });
});
