/**
 * Issue 22 §4: deadlines that hold and cancellation that is prompt, against a wire-level OpenAI stub
 * on 127.0.0.1. Observed before: a provider that never answered held a run for 4 attempts × 60 s
 * although its wall-clock limit was far shorter (the limit was only checked between calls), and a
 * cancel during a `Retry-After: 30` wait waited the 30 s out (cockatiel's retry delay ignores the
 * abort signal). The assertions are on how the run ended; each test's own timeout (well under the
 * stub's delay) is the only bound on time.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseArgs } from '../../cli/args';
import { configFromArgs, HARNESS_FLAGS } from '../../cli/common';
import { configFromEnv, resolveConfig } from '../harness/config';
import { ConfigError } from '../harness/errors';
import type { ModelClient } from '../harness/model/client';
import { isGuardEvent, isModelRetryEvent, type RunResult } from '../harness/types';
import { createStockroomAgent, type LiveModelContext } from '../stockroom/agent';
import { defaultDatasetDir, loadDataset } from '../stockroom/dataset/load-dataset';
import { liveModelFactory } from './create-model-client';
import { resetBreakers } from './resilience';
import { ProviderStub } from './testing/stub-server';

const dataset = loadDataset(defaultDatasetDir());
const ENV = { OPENAI_API_KEY: 'sk-test' };

describe('deadlines and cancellation of a live run', () => {
  let stub: ProviderStub;
  beforeAll(async () => {
    stub = await ProviderStub.start('openai');
  });
  afterAll(() => stub.close());
  beforeEach(() => {
    stub.reset();
    stub.respondWith(null);
    resetBreakers();
  });

  /**
   * A run with the default resilience (60 s per attempt, 3 retries) unless the config says otherwise;
   * `onRetry` hears of each retry as the loop does, just before the client starts waiting.
   */
  async function run(overrides: Parameters<typeof resolveConfig>[0], signal?: AbortSignal, onRetry?: () => void): Promise<RunResult> {
    const config = resolveConfig({ model: 'openai:gpt-test', modelBaseUrl: stub.baseURL, ...overrides });
    const factory = liveModelFactory(config, { env: ENV })!;
    const liveModel = (ctx: LiveModelContext): ModelClient => {
      const inner = factory(ctx);
      return {
        modelId: inner.modelId,
        converse: (request) =>
          inner.converse({
            ...request,
            onRetry: (notice) => {
              request.onRetry?.(notice);
              onRetry?.();
            },
          }),
      };
    };
    const agent = await createStockroomAgent({ dataset, config, liveModel });
    try {
      return await agent.run('How many SKU-1001 are in stock?', null, signal ? { signal } : {});
    } finally {
      await agent.close();
    }
  }

  it('ends TIMEOUT at the wall-clock limit while the provider never answers (observed: 4 attempts × 60 s)', async () => {
    stub.enqueue({ kind: 'hang' });
    const r = await run({ wallClockTimeoutS: 1 });
    expect(r.terminationReason).toBe('TIMEOUT');
    expect(r.trajectory.find(isGuardEvent)).toMatchObject({ guard: 'wall_clock', reason: 'TIMEOUT' });
    // The call in flight was cut off, not retried.
    expect(stub.requests).toHaveLength(1);
  }, 15_000);

  it('ends TIMEOUT at the wall-clock limit during a Retry-After: 30 wait', async () => {
    stub.respondWith(() => ({ kind: 'error', status: 429, headers: { 'retry-after': '30' } }));
    const r = await run({ wallClockTimeoutS: 1 });
    expect(r.terminationReason).toBe('TIMEOUT');
    expect(r.trajectory.find(isModelRetryEvent)).toMatchObject({ attempt: 1, reason: 'throttled', delayMs: 30_000 });
    expect(stub.requests).toHaveLength(1);
  }, 15_000);

  it('is cancelled at once during a Retry-After: 30 wait (observed: the 30 s were waited out)', async () => {
    stub.respondWith(() => ({ kind: 'error', status: 429, headers: { 'retry-after': '30' } }));
    const controller = new AbortController();
    // Cancelled as the 30 s wait begins.
    const r = await run({ wallClockTimeoutS: 600 }, controller.signal, () => controller.abort(new DOMException('cancelled by Ctrl-C', 'AbortError')));
    expect(r.terminationReason).toBe('MODEL_ERROR');
    expect(r.trajectory.find(isGuardEvent)).toMatchObject({ errorKind: 'cancelled' });
    expect(stub.requests).toHaveLength(1);
  }, 15_000);

  it('takes the per-attempt timeout and the retry count from the configuration', async () => {
    stub.respondWith(() => ({ kind: 'hang' }));
    const r = await run({ ...configFromEnv({ MODEL_CALL_TIMEOUT_S: '0.2', MODEL_CALL_RETRIES: '1' }), wallClockTimeoutS: 600 });
    expect(r.terminationReason).toBe('MODEL_ERROR');
    expect(r.trajectory.find(isGuardEvent)).toMatchObject({ errorKind: 'timeout' });
    // One attempt and one retry: the setting, not the default three retries, and no SDK retry on top.
    expect(stub.requests).toHaveLength(2);
    expect(r.trajectory.filter(isModelRetryEvent)).toHaveLength(1);
  }, 15_000);
});

describe('the per-attempt timeout and retry settings', () => {
  it.each([
    [{ MODEL_CALL_TIMEOUT_S: 'soon' }, 'MODEL_CALL_TIMEOUT_S'],
    [{ MODEL_CALL_TIMEOUT_S: '0' }, 'MODEL_CALL_TIMEOUT_S'],
    [{ MODEL_CALL_TIMEOUT_S: '601' }, 'MODEL_CALL_TIMEOUT_S'],
    [{ MODEL_CALL_RETRIES: '1.5' }, 'MODEL_CALL_RETRIES'],
    [{ MODEL_CALL_RETRIES: '-1' }, 'MODEL_CALL_RETRIES'],
    [{ MODEL_CALL_RETRIES: '11' }, 'MODEL_CALL_RETRIES'],
  ])('refuses %j naming %s', (env, variable) => {
    let err: unknown;
    try {
      resolveConfig(configFromEnv(env));
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).key).toBe(variable);
    expect((err as ConfigError).message).toContain(variable);
  });

  it('takes them from CLI flags too, validated the same way', () => {
    const fromFlags = (...argv: string[]) => configFromArgs(parseArgs(argv, HARNESS_FLAGS));
    expect(fromFlags('--model-timeout-s', '5', '--model-retries', '1', '--wall-clock-timeout-s', '30')).toMatchObject({ modelTimeoutS: 5, modelRetries: 1, wallClockTimeoutS: 30 });
    expect(() => fromFlags('--model-retries', 'many')).toThrow(/MODEL_CALL_RETRIES must be an integer/);
    expect(() => fromFlags('--model-timeout-s', '0')).toThrow(/MODEL_CALL_TIMEOUT_S must be between 0.1 and 600/);
  });

  it('reads valid values', () => {
    expect(resolveConfig(configFromEnv({ MODEL_CALL_TIMEOUT_S: '2.5', MODEL_CALL_RETRIES: '0' }))).toMatchObject({ modelTimeoutS: 2.5, modelRetries: 0 });
  });
});
