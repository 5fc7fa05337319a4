/**
 * An empty answer is one typed outcome on every provider (issue 40): OpenAI's empty `content` and
 * empty `choices` list, Anthropic's and Bedrock's empty content list, each sent by a wire-level stub
 * on 127.0.0.1 in the provider's own format. The model is asked once more; a second empty answer
 * stops the run EMPTY_ANSWER (never COMPLETED with a placeholder), keeping the usage both reported.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { resolveConfig } from '../harness/config';
import { isGuardEvent, isModelTurn, type RunResult } from '../harness/types';
import { createStockroomAgent } from '../stockroom/agent';
import { defaultDatasetDir, loadDataset } from '../stockroom/dataset/load-dataset';
import { loadGoldenFile } from '../eval/golden';
import { defaultGoldenPath } from '../eval/matrix';
import { EXIT_CODES } from '../../cli/exit-codes';
import { liveModelFactory } from './create-model-client';
import { resetBreakers } from './resilience';
import { ProviderStub, STUB_CREDENTIALS, type StubProvider, type StubReply } from './testing/stub-server';
import { formatOpenAI } from './testing/wire-formats';

const dataset = loadDataset(defaultDatasetDir());
const golden = loadGoldenFile(defaultGoldenPath(dataset)).cases[0]!;
const FAST = { retries: 0, initialDelayMs: 1, maxDelayMs: 2, timeoutMs: 5_000, random: () => 0 };
const MODEL: Record<StubProvider, string> = { openai: 'openai:gpt-test', anthropic: 'anthropic:claude-test', bedrock: 'bedrock:anthropic.claude-test-v1:0' };

/** Each provider's own empty answer: no text block, no tool call (OpenAI: `content: null`), usage reported. */
const EMPTY = (input: number): StubReply => ({ usage: { input, output: 1 } });

describe.each(['openai', 'anthropic', 'bedrock'] as const)('%s: an empty answer', (provider) => {
  let stub: ProviderStub;
  beforeAll(async () => {
    stub = await ProviderStub.start(provider);
  });
  afterAll(() => stub.close());
  beforeEach(() => {
    stub.reset();
    resetBreakers();
  });

  const runWith = async (replies: StubReply[]): Promise<RunResult> => {
    stub.enqueue(...replies);
    const config = resolveConfig({ model: MODEL[provider], modelBaseUrl: stub.baseURL });
    const agent = await createStockroomAgent({ dataset, config, liveModel: liveModelFactory(config, { env: STUB_CREDENTIALS[provider], resilience: FAST }) });
    try {
      return await agent.run(golden.query, golden.id);
    } finally {
      await agent.close();
    }
  };

  it('twice in a row stops the run EMPTY_ANSWER with its own exit code, never COMPLETED, keeping both calls’ usage', async () => {
    const run = await runWith([EMPTY(300), EMPTY(310)]);
    expect(run.terminationReason).toBe('EMPTY_ANSWER');
    expect(EXIT_CODES[run.terminationReason]).toBe(24);
    expect(stub.requests).toHaveLength(2);
    expect(run.finalAnswer).not.toMatch(/returned no text/);
    expect(run.trajectory.find(isGuardEvent)).toMatchObject({ reason: 'EMPTY_ANSWER' });
    expect(run.trajectory.filter(isModelTurn).map((t) => t.inputTokens)).toEqual([300, 310]);
    expect(run.usage.inputTokens).toBe(610);
    expect(run.transitions.map((t) => t.reason)).toContain('empty answer: the model is asked once more');
  });

  it('once, then an answer: the model was asked again and the run completes with that answer', async () => {
    const run = await runWith([EMPTY(300), { text: 'Here is what I found.', usage: { input: 320, output: 9 } }]);
    expect(run.terminationReason).toBe('COMPLETED');
    expect(run.finalAnswer).toBe('Here is what I found.');
    expect(stub.requests).toHaveLength(2);
    // The second request repeats the first: an empty turn adds nothing to the conversation.
    expect(JSON.stringify(stub.requests[1]!.body)).toBe(JSON.stringify(stub.requests[0]!.body));
  });

  it('whitespace only counts as empty', async () => {
    const run = await runWith([{ text: '  \n', usage: { input: 300, output: 1 } }, { text: ' ', usage: { input: 300, output: 1 } }]);
    expect(run.terminationReason).toBe('EMPTY_ANSWER');
  });
});

describe('openai: an empty choices list', () => {
  let stub: ProviderStub;
  beforeAll(async () => {
    stub = await ProviderStub.start('openai');
  });
  afterAll(() => stub.close());

  it('is the same empty answer (asked again, then EMPTY_ANSWER), its reported usage kept, not a bad response', async () => {
    resetBreakers();
    const noChoices = (input: number) => JSON.stringify({ ...(formatOpenAI({ text: 'x', usage: { input, output: 0 } }, 'gpt-test') as Record<string, unknown>), choices: [] });
    stub.enqueue({ kind: 'raw', body: noChoices(500) }, { kind: 'raw', body: noChoices(505) });
    const config = resolveConfig({ model: MODEL.openai, modelBaseUrl: stub.baseURL });
    const agent = await createStockroomAgent({ dataset, config, liveModel: liveModelFactory(config, { env: STUB_CREDENTIALS.openai, resilience: FAST }) });
    try {
      const run = await agent.run(golden.query, golden.id);
      expect(run.terminationReason).toBe('EMPTY_ANSWER');
      expect(run.usage.inputTokens).toBe(1005);
      expect(run.trajectory.find(isGuardEvent)).toMatchObject({ reason: 'EMPTY_ANSWER', detail: expect.stringContaining('no choices') });
    } finally {
      await agent.close();
    }
  });
});
