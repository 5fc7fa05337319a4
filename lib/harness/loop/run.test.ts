import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import { FakeClock } from '../clock';
import { resolveConfig, type HarnessConfig } from '../config';
import type { RunGuard } from '../guards/run-guard';
import { isGuardEvent, isToolRecord, RunResultSchema, type RunResult } from '../types';
import { failingModel, repeatingModel, scriptedModel, type TurnSpec } from '../testing/scripted-model';
import type { ModelClient } from '../model/client';
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

async function run(
  model: ModelClient,
  overrides: Partial<HarnessConfig> = {},
  extra: { query?: string; runGuards?: RunGuard[]; clock?: FakeClock; env?: StockroomEnvironment; repeatedCallGuard?: boolean } = {},
): Promise<RunResult> {
  const config = resolveConfig(overrides);
  const env = extra.env ?? new StockroomEnvironment(dataset, config.weaknesses);
  return runHarness(
    { query: extra.query ?? 'How many Blue Widgets are there?', caseId: null },
    {
      config,
      executor: new LocalToolExecutor(env),
      model,
      systemPrompt: dataset.systemPrompt,
      floatKeys: dataset.floatKeys,
      runGuards: extra.runGuards,
      clock: extra.clock,
      repeatedCallGuard: extra.repeatedCallGuard,
    },
  );
}

const lookup = (sku = 'SKU-2001'): TurnSpec => ({ calls: [['get_stock_level', { sku }]] });

describe('the harness loop', () => {
  it('walks PLAN → CALL_MODEL → EXECUTE_TOOLS → OBSERVE → CALL_MODEL → DONE and returns a storable RunResult', async () => {
    const r = await run(scriptedModel([lookup(), { text: '  40 in stock.  ' }]));
    expect(r.terminationReason).toBe('COMPLETED');
    expect(r.finalAnswer).toBe('40 in stock.');
    expect(r.transitions.map((t) => `${t.step}:${t.from}>${t.to}:${t.reason}`)).toEqual([
      '0:PLAN>CALL_MODEL:start',
      '1:CALL_MODEL>EXECUTE_TOOLS:1 tool call(s)',
      '1:EXECUTE_TOOLS>OBSERVE:tool results appended',
      '1:OBSERVE>CALL_MODEL:observe → call model',
      '2:CALL_MODEL>DONE:stop_reason:end_turn',
    ]);
    expect(r.usage.modelCalls).toBe(2);
    expect(r.usage.perCall).toHaveLength(2);
    expect(r.modelInputs.map((m) => m.messages.length)).toEqual([1, 3]);
    expect(RunResultSchema.parse(JSON.parse(JSON.stringify(r)))).toEqual(JSON.parse(JSON.stringify(r)));
  });

  it('counts model calls, not tool calls, against MAX_STEPS and never makes the call past the limit', async () => {
    const turns: TurnSpec[] = Array.from({ length: 10 }, (_, i) => lookup(i % 2 ? 'SKU-2001' : 'SKU-2002'));
    const r = await run(scriptedModel(turns), { maxSteps: 3 });
    expect(r.terminationReason).toBe('MAX_STEPS');
    expect(r.usage.modelCalls).toBe(3);
    expect(r.steps).toBe(4);
    expect(r.finalAnswer).toBe('I had to stop before finishing (MAX_STEPS): reached the per-run step limit of 3 model calls.');
    expect(r.transitions.at(-1)).toMatchObject({ from: 'CALL_MODEL', to: 'FAILED', reason: 'guard:max_steps' });
  });

  it('checks the wall clock before max steps, using the clock it is given', async () => {
    const clock = new FakeClock();
    const slow: ModelClient = {
      modelId: 'slow',
      async converse(req) {
        clock.advance(31_000);
        return scriptedModel([lookup(), lookup('SKU-2002'), lookup('SKU-2003')]).converse(req);
      },
    };
    const r = await run(slow, { wallClockTimeoutS: 60, maxSteps: 2 }, { clock });
    expect(r.terminationReason).toBe('TIMEOUT');
    expect(r.usage.modelCalls).toBe(2);
    expect(r.trajectory.filter(isGuardEvent)).toEqual([
      {
        kind: 'guard',
        step: 3,
        guard: 'wall_clock',
        reason: 'TIMEOUT',
        detail: 'run exceeded the wall-clock limit of 60s (62.0s)',
        // When it tripped, on the clock the run was given.
        time: { startedAt: '2026-01-01T00:01:02.000Z', endedAt: '2026-01-01T00:01:02.000Z', startMs: 62_000, endMs: 62_000 },
      },
    ]);
  });

  it('stops with TOKEN_BUDGET before a call whose input plus reserved output would pass the ceiling', async () => {
    const r = await run(scriptedModel([lookup(), lookup('SKU-2002'), { text: 'done' }]), { tokenBudget: 1200, maxTokens: 500 });
    expect(r.terminationReason).toBe('TOKEN_BUDGET');
    const used = r.usage.inputTokens + r.usage.outputTokens;
    const guard = r.trajectory.find(isGuardEvent)!;
    expect(guard.detail).toMatch(new RegExp(`up to 500 output\\) would exceed the budget of 1200 \\(used ${used}\\)$`));
    const next = Number(/~(\d+) input/.exec(guard.detail)![1]);
    expect(used + next + 500).toBeGreaterThan(1200);
  });

  it('stops with REPEATED_CALL on the third identical call without executing it', async () => {
    const r = await run(repeatingModel('get_stock_level', { sku: 'SKU-2001' }));
    expect(r.terminationReason).toBe('REPEATED_CALL');
    expect(r.trajectory.filter(isToolRecord)).toHaveLength(2);
    expect(r.finalAnswer).toContain('get_stock_level was requested 3 times in a row with identical arguments');
  });

  it('does not guard repeated calls when told repeatedCallGuard: false', async () => {
    const r = await run(repeatingModel('get_stock_level', { sku: 'SKU-2001' }), { maxSteps: 5 }, { repeatedCallGuard: false });
    expect(r.terminationReason).toBe('MAX_STEPS');
    expect(r.trajectory.filter(isToolRecord)).toHaveLength(5);
  });

  it('reads no weakness flag: naive_retry in the configuration alone leaves the repeated-call guard on', async () => {
    // The Stockroom layer maps the flag onto repeatedCallGuard (lib/stockroom/weaknesses); the loop only takes the switch.
    const r = await run(repeatingModel('get_stock_level', { sku: 'SKU-2001' }), { weaknesses: ['naive_retry'], maxSteps: 5 });
    expect(r.terminationReason).toBe('REPEATED_CALL');
  });

  it('intercepts invalid arguments before the tool and returns the expected schema to the model', async () => {
    const env = new StockroomEnvironment(dataset, []);
    const r = await run(
      scriptedModel([{ calls: [['create_restock_request', { sku: 'SKU-2001', quantity: 'fifty' }]] }, { text: 'ok' }]),
      {},
      { env },
    );
    const [rec] = r.trajectory.filter(isToolRecord);
    expect(rec).toMatchObject({ executed: false, errorCode: 'invalid_arguments', validationError: "quantity: 'fifty' is not of type 'integer'" });
    expect((rec!.resultContent as { expected_schema: unknown }).expected_schema).toEqual(
      env.listSpecs().find((s) => s.name === 'create_restock_request')!.inputSchema,
    );
    expect(env.ledger.records()).toHaveLength(0);
    const second = r.modelInputs[1]!.messages[2] as { content: { toolResult: { status: string } }[] };
    expect(second.content[0]!.toolResult.status).toBe('error');
  });

  it('stops with INVALID_TOOL_CALLS when the model only ever sends invalid calls', async () => {
    const r = await run(repeatingModel('get_stock_level', { sku: 'nope' }), { maxSteps: 4 });
    expect(r.terminationReason).toBe('INVALID_TOOL_CALLS');
    expect(r.trajectory.filter(isToolRecord).every((t) => t.validationError !== null)).toBe(true);
    expect(r.usage.modelCalls).toBe(4);
    expect(r.finalAnswer).toContain('the model kept sending invalid tool arguments');
  });

  it('ends with MODEL_ERROR when the model call fails', async () => {
    const r = await run(failingModel('throttling', 'rate exceeded'));
    expect(r.terminationReason).toBe('MODEL_ERROR');
    expect(r.finalAnswer).toBe('The model call failed (throttling): rate exceeded');
    expect(r.transitions.at(-1)).toMatchObject({ to: 'FAILED', reason: 'model_error' });
  });

  it('lets a run guard block a call (the run continues) or halt the run with its reason', async () => {
    const blocker: RunGuard = {
      name: 'no_restock',
      checkToolCall: (call) => (call.name === 'create_restock_request' ? { action: 'block', message: 'not today' } : { action: 'allow' }),
    };
    const turns: TurnSpec[] = [{ calls: [['create_restock_request', { sku: 'SKU-2001', quantity: 20 }]] }, lookup(), { text: 'fine' }];
    const env = new StockroomEnvironment(dataset, []);
    const blocked = await run(scriptedModel(turns), {}, { runGuards: [blocker], env });
    expect(blocked.terminationReason).toBe('COMPLETED');
    const recs = blocked.trajectory.filter(isToolRecord);
    expect(recs[0]).toMatchObject({ executed: false, blockedBy: 'no_restock', resultContent: { error: 'blocked_by_guard', guard: 'no_restock', message: 'not today' } });
    expect(recs[1]).toMatchObject({ executed: true, name: 'get_stock_level' });
    expect(env.ledger.records()).toHaveLength(0);

    const halter: RunGuard = { name: 'stop_all', checkToolCall: () => ({ action: 'halt', reason: 'TOOL_ERROR', detail: 'tools are frozen' }) };
    const halted = await run(scriptedModel(turns), {}, { runGuards: [halter] });
    expect(halted.terminationReason).toBe('TOOL_ERROR');
    expect(halted.finalAnswer).toBe('I had to stop before finishing (TOOL_ERROR): tools are frozen.');
    expect(halted.trajectory.filter(isGuardEvent)[0]).toMatchObject({ guard: 'stop_all', reason: 'TOOL_ERROR' });
  });

  it('resets the executor at the start of every run: the same restock twice gives RSR-0001 twice', async () => {
    const env = new StockroomEnvironment(dataset, []);
    const turns: TurnSpec[] = [{ calls: [['create_restock_request', { sku: 'SKU-2003', quantity: 20 }]] }, { text: 'ok' }];
    const ids: unknown[] = [];
    for (let i = 0; i < 2; i++) {
      const r = await run(scriptedModel(turns), {}, { env });
      ids.push((r.trajectory.find(isToolRecord)!.resultContent as { request_id: string }).request_id);
    }
    expect(ids).toEqual(['RSR-0001', 'RSR-0001']);
  });
});

describe('pausing for approval and resuming', () => {
  const policy: import('../guards/call-policy').CallPolicy = {
    decide(call) {
      const q = (call.arguments as { quantity?: number }).quantity ?? 0;
      if (call.name === 'create_restock_request' && q > 100) {
        return { decision: 'approval_required', rule: 'restock-above-100', policyVersion: 'v-test', message: 'needs a manager' };
      }
      if (call.name === 'get_order_status') return { decision: 'deny', rule: 'no-orders', policyVersion: 'v-test', message: 'orders are off limits' };
      return { decision: 'allow', rule: 'default', policyVersion: 'v-test' };
    },
  };
  const turns: TurnSpec[] = [
    { calls: [['get_stock_level', { sku: 'SKU-2003' }], ['create_restock_request', { sku: 'SKU-2003', quantity: 300 }], ['get_stock_level', { sku: 'SKU-2001' }]] },
    { text: 'finished' },
  ];
  const options = (env: StockroomEnvironment, clock = new FakeClock()) => ({
    config: resolveConfig({}),
    executor: new LocalToolExecutor(env),
    model: scriptedModel(turns),
    systemPrompt: dataset.systemPrompt,
    floatKeys: dataset.floatKeys,
    policy,
    clock,
  });

  it('pauses in EXECUTE_TOOLS with a checkpoint; nothing past the awaited call has run', async () => {
    const env = new StockroomEnvironment(dataset, []);
    const paused = await runHarness({ query: 'restock SKU-2003' }, options(env));
    expect(paused.status).toBe('paused');
    expect(paused.checkpoint).toMatchObject({
      stateVersion: 1,
      step: 1,
      stepRecords: 1,
      awaiting: { name: 'create_restock_request', rule: 'restock-above-100', policyVersion: 'v-test' },
    });
    expect(paused.checkpoint!.pendingCalls.map((c) => c.name)).toEqual(['create_restock_request', 'get_stock_level']);
    expect(paused.trajectory.filter(isToolRecord).map((t) => t.name)).toEqual(['get_stock_level']);
    expect(paused.transitions.at(-1)).toMatchObject({ from: 'EXECUTE_TOOLS', to: 'EXECUTE_TOOLS' });
    expect(env.ledger.records()).toHaveLength(0);
  });

  it('resumes from a stored checkpoint after approval and completes as if it had never stopped', async () => {
    const env = new StockroomEnvironment(dataset, []);
    const paused = await runHarness({ query: 'restock SKU-2003' }, options(env));
    const stored = RunResultSchema.parse(JSON.parse(JSON.stringify(paused)));
    const done = await resumeHarness(stored, { outcome: 'approved' }, options(env));
    expect(done.status).toBe('finished');
    expect(done.terminationReason).toBe('COMPLETED');
    expect(done.finalAnswer).toBe('finished');
    const recs = done.trajectory.filter(isToolRecord);
    expect(recs.map((t) => [t.name, t.executed])).toEqual([
      ['get_stock_level', true],
      ['create_restock_request', true],
      ['get_stock_level', true],
    ]);
    expect(recs[1]!.policy).toEqual({ decision: 'approval_required', rule: 'restock-above-100', policyVersion: 'v-test', resolution: 'approved' });
    expect(env.ledger.records()).toHaveLength(1);
    // The model saw all three results in one message, in call order.
    const seen = done.modelInputs.at(-1)!.messages.at(-1) as { content: { toolResult: { toolUseId: string } }[] };
    expect(seen.content.map((b) => b.toolResult.toolUseId)).toEqual(recs.map((r) => r.toolUseId));
  });

  it('turns a denial into a structured refusal the model reads, and denies by policy without pausing', async () => {
    const env = new StockroomEnvironment(dataset, []);
    const paused = await runHarness({ query: 'restock SKU-2003' }, options(env));
    const done = await resumeHarness(paused, { outcome: 'denied', message: 'not this month' }, options(env));
    const refused = done.trajectory.filter(isToolRecord)[1]!;
    expect(refused).toMatchObject({ executed: false, blockedBy: 'policy', errorCode: 'approval_denied', resultContent: { error: 'approval_denied', message: 'not this month' } });
    expect(env.ledger.records()).toHaveLength(0);
    const lastInput = JSON.stringify(done.modelInputs.at(-1)!.messages);
    expect(lastInput).toContain('approval_denied');

    const denied = await runHarness(
      { query: 'where is ORD-3001' },
      { ...options(env), model: scriptedModel([{ calls: [['get_order_status', { order_id: 'ORD-3001' }]] }, { text: 'ok' }]) },
    );
    expect(denied.status).toBe('finished');
    expect(denied.trajectory.filter(isToolRecord)[0]).toMatchObject({ errorCode: 'denied_by_policy', blockedBy: 'policy', executed: false });
  });

  it('does not count the time spent waiting for a reviewer against the wall clock', async () => {
    const env = new StockroomEnvironment(dataset, []);
    const clock = new FakeClock();
    const paused = await runHarness({ query: 'restock SKU-2003' }, options(env, clock));
    clock.advance(3_600_000);
    const done = await resumeHarness(paused, { outcome: 'approved' }, options(env, clock));
    expect(done.terminationReason).toBe('COMPLETED');
  });
});
