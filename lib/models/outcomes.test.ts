/**
 * A run that did not really complete is not COMPLETED (issue 22, part 1): each provider's truncated,
 * refused and filtered answers, sent by its wire-level stub on 127.0.0.1, end the run with their own
 * typed termination, which the exported spans carry as `error.type` and the case scores never count
 * as success.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { resolveConfig } from '../harness/config';
import { isGuardEvent, isModelTurn, type TerminationReason } from '../harness/types';
import { createStockroomAgent } from '../stockroom/agent';
import { defaultDatasetDir, loadDataset } from '../stockroom/dataset/load-dataset';
import { planRunSpans } from '../otel/run-spans';
import { scoreCase } from '../eval/case-scores';
import { loadGoldenFile } from '../eval/golden';
import { defaultGoldenPath } from '../eval/matrix';
import { liveModelFactory } from './create-model-client';
import { resetBreakers } from './resilience';
import { ProviderStub, STUB_CREDENTIALS, type StubProvider, type StubReply } from './testing/stub-server';
import { formatOpenAI } from './testing/wire-formats';

const dataset = loadDataset(defaultDatasetDir());
/** The first golden case that expects a fact and a tool; its answer, cut short, already holds the fact. */
const golden = loadGoldenFile(defaultGoldenPath(dataset)).cases.find((c) => c.expectedFacts.length > 0 && c.expectedTools.length > 0)!;
const CUT = `Yes: ${golden.expectedFacts[0]} (cut he`;
const CALL = { calls: [{ id: 'call_1', name: golden.expectedTools[0]!.name, args: golden.expectedTools[0]!.args }] };
const FAST = { retries: 0, initialDelayMs: 1, maxDelayMs: 2, timeoutMs: 5_000, random: () => 0 };
const MODEL: Record<StubProvider, string> = { openai: 'openai:gpt-test', anthropic: 'anthropic:claude-test', bedrock: 'bedrock:anthropic.claude-test-v1:0' };

/** Each provider's own word for an answer that did not finish, and the termination it must end in. */
const CASES: [StubProvider, string, StubReply, TerminationReason][] = [
  ['openai', 'finish_reason length', { text: CUT, stop: 'length' }, 'OUTPUT_TRUNCATED'],
  ['openai', 'finish_reason content_filter', { stop: 'content_filter' }, 'CONTENT_FILTERED'],
  ['openai', 'message.refusal', { kind: 'raw', body: JSON.stringify(refusalBody()) }, 'MODEL_REFUSED'],
  ['anthropic', 'stop_reason max_tokens', { text: CUT, stop: 'max_tokens' }, 'OUTPUT_TRUNCATED'],
  ['anthropic', 'stop_reason refusal', { stop: 'refusal' }, 'MODEL_REFUSED'],
  ['bedrock', 'stopReason max_tokens', { text: CUT, stop: 'max_tokens' }, 'OUTPUT_TRUNCATED'],
  ['bedrock', 'stopReason content_filtered', { stop: 'content_filtered' }, 'CONTENT_FILTERED'],
  ['bedrock', 'stopReason guardrail_intervened', { text: 'Sorry, the model cannot answer this.', stop: 'guardrail_intervened' }, 'CONTENT_FILTERED'],
];

/** OpenAI's refusal: finish_reason `stop`, no content, the refusal in `message.refusal`. */
function refusalBody() {
  const body = formatOpenAI({ stop: 'stop' }, 'gpt-test') as { choices: { message: Record<string, unknown> }[] };
  body.choices[0]!.message.refusal = "I'm sorry, I can't help with that.";
  return body;
}

describe.each(['openai', 'anthropic', 'bedrock'] as const)('%s: an answer that did not finish', (provider) => {
  let stub: ProviderStub;
  beforeAll(async () => {
    stub = await ProviderStub.start(provider);
  });
  afterAll(() => stub.close());
  beforeEach(() => {
    stub.reset();
    resetBreakers();
  });

  const runWith = async (...replies: StubReply[]) => {
    stub.enqueue(...replies);
    const config = resolveConfig({ model: MODEL[provider], modelBaseUrl: stub.baseURL });
    const liveModel = liveModelFactory(config, { env: STUB_CREDENTIALS[provider], resilience: FAST });
    const agent = await createStockroomAgent({ dataset, config, liveModel });
    try {
      return await agent.run(golden.query, golden.id);
    } finally {
      await agent.close();
    }
  };

  it.each(CASES.filter(([p]) => p === provider))('%s %s ends the run with its own termination, not COMPLETED', async (_p, _what, reply, termination) => {
    const run = await runWith(CALL, reply);
    expect(run.terminationReason).toBe(termination);
    // The cut text is kept on the model turn for inspection, never stored as the final answer.
    expect(run.finalAnswer).not.toContain(CUT);
    expect(run.finalAnswer).toContain(termination);
    expect(run.trajectory.filter(isModelTurn).at(-1)?.finishReason).toBe(reply.kind === 'raw' ? 'stop' : reply.kind === undefined || reply.kind === 'turn' ? reply.stop : null);
    expect(run.trajectory.find(isGuardEvent)).toMatchObject({ guard: 'model', reason: termination });
    expect(run.transitions.at(-1)).toMatchObject({ from: 'CALL_MODEL', to: 'FAILED' });

    // Exported spans: the root span carries the termination as error.type.
    const root = planRunSpans(run, { captureContent: false });
    expect(root.errorType).toBe(termination);
    expect(root.attributes['error.type']).toBe(termination);

    // Scored: neither the expected termination nor a correct answer.
    const score = scoreCase(golden, run);
    expect(score.terminationMatch).toBe(golden.expectedTermination === termination);
    expect(score.answerCorrectnessDeterministic).toBe(false);
  });

  it('a finished answer still completes', async () => {
    const run = await runWith(CALL, { text: `Yes: ${golden.expectedFacts[0]}.` });
    expect(run.terminationReason).toBe('COMPLETED');
    expect(run.finalAnswer).toBe(`Yes: ${golden.expectedFacts[0]}.`);
    expect(scoreCase(golden, run).answerCorrectnessDeterministic).toBe(true);
  });
});
