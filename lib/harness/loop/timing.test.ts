/**
 * Issue 22 §3: when each call started and ended is recorded, not rebuilt. Observed before: a call
 * recorded only its latency, so the first model call "started" with the run, gaps vanished, and a
 * retry wait or an approval wait had no time at all. The clock is the one handed to the loop.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTimesOf } from '../call-times';
import { FakeClock } from '../clock';
import { resolveConfig } from '../config';
import { ForwardingExecutor, type ToolCallContext } from '../executor';
import type { CallPolicy } from '../guards/call-policy';
import type { JsonValue } from '../json';
import type { ModelClient } from '../model/client';
import { scriptedModel, type TurnSpec } from '../testing/scripted-model';
import { isModelRetryEvent, isModelTurn, isToolRecord, RunResultSchema } from '../types';
import { resumeHarness, runHarness } from './run';
import { clearDatasetCache, loadDataset } from '../../stockroom/dataset/load-dataset';
import type { Dataset } from '../../stockroom/dataset/types';
import { StockroomEnvironment } from '../../stockroom/environment';
import { LocalToolExecutor } from '../../stockroom/executor/local-executor';
import { writeFixtureDataset } from '../../stockroom/testing/fixture-dataset';

let dir: string;
let dataset: Dataset;
beforeAll(() => {
  dir = writeFixtureDataset();
  dataset = loadDataset(dir);
});
afterAll(() => {
  clearDatasetCache();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A model that takes `ms` of the run's clock per call. */
function slowModel(clock: FakeClock, turns: TurnSpec[], ms: number): ModelClient {
  const inner = scriptedModel(turns);
  return { modelId: inner.modelId, converse: async (req) => (clock.advance(ms), inner.converse(req)) };
}

/** Tools that take `ms` of the run's clock per call. */
class SlowTools extends ForwardingExecutor {
  constructor(
    inner: LocalToolExecutor,
    private readonly clock: FakeClock,
    private readonly ms: number,
  ) {
    super(inner);
  }
  override call(name: string, args: JsonValue, context?: ToolCallContext) {
    this.clock.advance(this.ms);
    return super.call(name, args, context);
  }
}

const lookup = (sku: string): TurnSpec => ({ calls: [['get_stock_level', { sku }]] });

function options(clock: FakeClock, model: ModelClient, extra: { policy?: CallPolicy; onStep?: () => void } = {}) {
  const env = new StockroomEnvironment(dataset, []);
  return {
    config: resolveConfig({}),
    executor: new SlowTools(new LocalToolExecutor(env), clock, 200),
    model,
    systemPrompt: dataset.systemPrompt,
    floatKeys: dataset.floatKeys,
    clock,
    ...extra,
  };
}

describe('recorded times', () => {
  it('records each model and tool call’s start and end, keeping the gaps between them (observed: laid end to end from the run’s start)', async () => {
    const clock = new FakeClock();
    // Storing progress takes 50 ms before the first model call and after each step.
    const r = await runHarness(
      { query: 'How many Blue Widgets are there?' },
      options(clock, slowModel(clock, [lookup('SKU-2001'), { text: 'done' }], 500), { onStep: () => clock.advance(50) }),
    );
    expect(r.terminationReason).toBe('COMPLETED');
    const [first, second] = r.trajectory.filter(isModelTurn);
    const tool = r.trajectory.find(isToolRecord)!;
    expect(first!.time).toEqual({ startedAt: '2026-01-01T00:00:00.050Z', endedAt: '2026-01-01T00:00:00.550Z', startMs: 50, endMs: 550 });
    expect(tool.time).toMatchObject({ startMs: 550, endMs: 750 });
    expect(second!.time).toMatchObject({ startMs: 800, endMs: 1300 });
    expect(r.durationMs).toBeGreaterThanOrEqual(second!.time!.endMs);
    // The times survive the stored schema.
    expect(RunResultSchema.parse(JSON.parse(JSON.stringify(r))).trajectory).toEqual(r.trajectory);
  });

  it('records a retry wait from the retry notice to the client’s word that it is over', async () => {
    const clock = new FakeClock();
    const inner = scriptedModel([{ text: 'done' }]);
    const retrying: ModelClient = {
      modelId: inner.modelId,
      async converse(req) {
        clock.advance(100);
        req.onRetry?.({ attempt: 1, reason: 'throttled', detail: '429', delayMs: 1000 });
        clock.advance(1000);
        req.onRetryWaited?.(1);
        clock.advance(100);
        return inner.converse(req);
      },
    };
    const r = await runHarness({ query: 'q' }, options(clock, retrying));
    expect(r.trajectory.find(isModelRetryEvent)!.time).toMatchObject({ startMs: 100, endMs: 1100 });
    expect(r.trajectory.find(isModelTurn)!.time).toMatchObject({ startMs: 0, endMs: 1200 });
  });

  it('records a model error and the guard it tripped with the failed call’s time', async () => {
    const clock = new FakeClock();
    const failing: ModelClient = {
      modelId: 'failing',
      converse: async () => {
        clock.advance(300);
        throw Object.assign(new Error('boom'), { kind: 'server_error' });
      },
    };
    const r = await runHarness({ query: 'q' }, options(clock, failing));
    expect(r.terminationReason).toBe('MODEL_ERROR');
    expect(r.trajectory.at(-1)).toMatchObject({ kind: 'guard', time: { startMs: 0, endMs: 300 } });
  });

  it('records the wait for a reviewer, and the resumed run’s times go on after it', async () => {
    const policy: CallPolicy = {
      decide: (call) =>
        call.name === 'create_restock_request'
          ? { decision: 'approval_required', rule: 'big', policyVersion: 'v', message: 'needs a manager' }
          : { decision: 'allow', rule: 'default', policyVersion: 'v' },
    };
    const clock = new FakeClock();
    const turns: TurnSpec[] = [{ calls: [['create_restock_request', { sku: 'SKU-2003', quantity: 300 }]] }, { text: 'finished' }];
    const model = slowModel(clock, turns, 500);
    const paused = await runHarness({ query: 'restock SKU-2003' }, options(clock, model, { policy }));
    expect(paused.status).toBe('paused');
    clock.advance(3_600_000);
    const done = await resumeHarness(paused, { outcome: 'approved' }, options(clock, model, { policy }));
    const call = done.trajectory.find(isToolRecord)!;
    expect(call.approvalWait).toEqual({ startedAt: '2026-01-01T00:00:00.500Z', endedAt: '2026-01-01T01:00:00.500Z', startMs: 500, endMs: 3_600_500 });
    expect(call.time).toMatchObject({ startMs: 3_600_500, endMs: 3_600_700 });
    expect(done.trajectory.filter(isModelTurn)[1]!.time).toMatchObject({ startMs: 3_600_700, endMs: 3_601_200 });
    const times = callTimesOf(done);
    expect(times.complete).toBe(true);
    expect(times.entries.map((e) => e.kind)).toEqual(['model_call', 'approval_wait', 'tool_call', 'model_call']);
  });

  it('reads a run recorded before times were as unknown (null), never rebuilt from latencies', async () => {
    const r = await runHarness({ query: 'How many Blue Widgets are there?' }, options(new FakeClock(), scriptedModel([lookup('SKU-2001'), { text: 'done' }])));
    const old = { ...r, trajectory: r.trajectory.map((s) => ({ ...s, time: undefined })) };
    const times = callTimesOf(old as typeof r);
    expect(times.complete).toBe(false);
    expect(times.entries.map((e) => [e.kind, e.time])).toEqual([
      ['model_call', null],
      ['tool_call', null],
      ['model_call', null],
    ]);
  });
});
