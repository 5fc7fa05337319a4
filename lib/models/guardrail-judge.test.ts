/**
 * The LLM guard judged by a live model over the wire (OpenAI stub on 127.0.0.1): the run's own live
 * model is the judge; a verdict in the schema decides, a reply outside it is a failed judge that
 * on_error decides — never a silent pass.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { resolveConfig } from '../harness/config';
import { parseGuardrails } from '../harness/guardrails/config';
import { isGuardrailEvent } from '../harness/types';
import { createStockroomAgent } from '../stockroom/agent';
import { defaultDatasetDir, loadDataset } from '../stockroom/dataset/load-dataset';
import { liveModelFactory } from './create-model-client';
import { resetBreakers } from './resilience';
import { ProviderStub } from './testing/stub-server';

const dataset = loadDataset(defaultDatasetDir());
const FAST = { retries: 1, initialDelayMs: 1, maxDelayMs: 2, timeoutMs: 5_000, random: () => 0 };

describe('the LLM guard on a live model (OpenAI stub)', () => {
  let stub: ProviderStub;
  beforeAll(async () => {
    stub = await ProviderStub.start('openai');
  });
  afterAll(() => stub.close());
  beforeEach(() => {
    stub.reset();
    resetBreakers();
  });

  const agentFor = async (onError: 'block' | 'allow') => {
    const guardrails = parseGuardrails({ llm_guard: { policy: 'Never promise a delivery date.', on_error: onError }, on_violation: 'fail' });
    const config = resolveConfig({ model: 'openai:gpt-test', modelBaseUrl: stub.baseURL, guardrails });
    const liveModel = liveModelFactory(config, { env: { OPENAI_API_KEY: 'sk-test' }, resilience: FAST });
    return createStockroomAgent({ dataset, config, liveModel });
  };

  it('sends the policy and the answer to the judge and follows its verdict', async () => {
    stub.enqueue({ text: 'It arrives on Monday.' }, { text: '{"severity": "high", "reason": "promises a delivery date"}' });
    const run = await (await agentFor('block')).run('When does ORD-1001 arrive?');
    expect(run.terminationReason).toBe('GUARDRAIL');
    expect(run.trajectory.filter(isGuardrailEvent).find((e) => e.guardrail === 'llm_guard')).toMatchObject({ action: 'violated', verdict: { severity: 'high' } });
    expect(JSON.stringify(stub.requests[1]!.body)).toContain('Never promise a delivery date.');
    expect(JSON.stringify(stub.requests[1]!.body)).toContain('It arrives on Monday.');
  });

  it('a judge reply outside the schema is a failed judge: block fails the run, allow delivers it recorded', async () => {
    stub.enqueue({ text: 'It arrives on Monday.' }, { text: 'Looks fine to me.' });
    const blocked = await (await agentFor('block')).run('When does ORD-1001 arrive?');
    expect(blocked.terminationReason).toBe('GUARDRAIL');
    expect(blocked.trajectory.filter(isGuardrailEvent).map((e) => e.action)).toContain('judge_failed');
    stub.enqueue({ text: 'It arrives on Monday.' }, { text: '{"verdict": "ok"}' });
    const allowed = await (await agentFor('allow')).run('When does ORD-1001 arrive?');
    expect(allowed.terminationReason).toBe('COMPLETED');
    expect(allowed.finalAnswer).toBe('It arrives on Monday.');
    expect(allowed.trajectory.filter(isGuardrailEvent).map((e) => e.action)).toEqual(['judge_failed']);
  });
});
