/**
 * Usage a provider did not report (issue 40, part 1), at the loop: such a call adds nothing to the
 * reported totals and is counted as unreported; the budgets count it by the handed-in token
 * estimator (kept apart, marked with the estimator's name); with no estimate possible, the run stops
 * USAGE_UNKNOWN before the next call instead of spending blind.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig, type HarnessConfig } from '../config';
import type { ConverseRequest, ModelClient } from '../model/client';
import type { TokenEstimator } from '../token-estimator';
import { scriptedModel, type TurnSpec } from '../testing/scripted-model';
import { isGuardEvent, isModelTurn, RunResultSchema, type ModelResponse, type RunResult } from '../types';
import { runHarness } from './run';
import { addCallUsage, budgetTokens, emptyUsage } from './usage';
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

/** The scripted model with its usage dropped, as a server that reports none answers. */
function unreporting(turns: TurnSpec[]): ModelClient {
  const inner = scriptedModel(turns, dataset.floatKeys);
  return {
    modelId: 'test.unreporting',
    async converse(request: ConverseRequest): Promise<ModelResponse> {
      return { ...(await inner.converse(request)), inputTokens: null, outputTokens: null };
    },
  };
}

/** Counts one token per four characters: enough to tell an estimate from nothing. */
const quarterChars: TokenEstimator = { name: 'quarter-chars (estimated)', count: (text) => Math.ceil(text.length / 4) };
const cannotCount: TokenEstimator = { name: 'broken', count: () => null };

async function run(model: ModelClient, overrides: Partial<HarnessConfig> = {}, tokenEstimator?: TokenEstimator): Promise<RunResult> {
  const config = resolveConfig(overrides);
  return runHarness(
    { query: 'How many Blue Widgets are there?', caseId: null },
    {
      config,
      executor: new LocalToolExecutor(new StockroomEnvironment(dataset, config.weaknesses)),
      model,
      systemPrompt: dataset.systemPrompt,
      floatKeys: dataset.floatKeys,
      ...(tokenEstimator ? { tokenEstimator } : {}),
    },
  );
}

const lookup: TurnSpec = { calls: [['get_stock_level', { sku: 'SKU-2001' }]] };

describe('a call that reported no usage', () => {
  it('stops the run USAGE_UNKNOWN before the next call when no estimate can be made', async () => {
    const r = await run(unreporting([lookup, { text: 'done' }]));
    expect(r.terminationReason).toBe('USAGE_UNKNOWN');
    expect(r.usage.modelCalls).toBe(1);
    expect(r.trajectory.find(isGuardEvent)).toMatchObject({ guard: 'usage_unknown', reason: 'USAGE_UNKNOWN' });
    expect(r.trajectory.find(isGuardEvent)!.detail).toMatch(/1 model call reported no usage/);
    expect(RunResultSchema.safeParse(r).success).toBe(true);
  });

  it('stops the same way when the estimator cannot count the text', async () => {
    const r = await run(unreporting([lookup, { text: 'done' }]), {}, cannotCount);
    expect(r.terminationReason).toBe('USAGE_UNKNOWN');
  });

  it('is counted by the estimator: kept apart from reported usage and marked with its name', async () => {
    const r = await run(unreporting([lookup, { text: 'done' }]), {}, quarterChars);
    expect(r.terminationReason).toBe('COMPLETED');
    expect(r.usage).toMatchObject({ modelCalls: 2, inputTokens: 0, outputTokens: 0, unreportedCalls: 2 });
    expect(r.usage.estimatedTokens).toMatchObject({ calls: 2, by: 'quarter-chars (estimated)' });
    expect(r.usage.estimatedTokens!.inputTokens).toBeGreaterThan(0);
    for (const t of r.trajectory.filter(isModelTurn)) {
      expect(t).toMatchObject({ inputTokens: null, outputTokens: null, usageEstimate: { by: 'quarter-chars (estimated)' } });
    }
    expect(RunResultSchema.safeParse(r).success).toBe(true);
  });

  it('counts against the token budget at its estimate (an unreported call is never free)', async () => {
    const estimated = await run(unreporting([lookup, { text: 'done' }]), {}, quarterChars);
    const first = estimated.trajectory.filter(isModelTurn)[0]!;
    const spent = first.usageEstimate!.inputTokens + first.usageEstimate!.outputTokens;
    const next = estimated.trajectory.filter(isModelTurn)[1]!.contextTokensEstimate;
    // Room for the second call only if the first cost nothing.
    const tokenBudget = next + 100 + Math.floor(spent / 2);
    const r = await run(unreporting([lookup, { text: 'done' }]), { tokenBudget, maxTokens: 100 }, quarterChars);
    expect(r.terminationReason).toBe('TOKEN_BUDGET');
    expect(r.usage.modelCalls).toBe(1);
  });
});

describe('usage bookkeeping', () => {
  it('keeps runs of the agent alone in their old shape, and splits by purpose once another purpose calls', () => {
    const u = emptyUsage();
    addCallUsage(u, 'agent', { inputTokens: 10, outputTokens: 2 }, true);
    expect(u).toEqual({ modelCalls: 1, inputTokens: 10, outputTokens: 2, totalTokens: 12, perCall: [{ inputTokens: 10, outputTokens: 2 }] });
    addCallUsage(u, 'guardrail', { inputTokens: null, outputTokens: null }, false, { inputTokens: 5, outputTokens: 1, by: 'x' });
    expect(u.byPurpose).toEqual({
      agent: { calls: 1, inputTokens: 10, outputTokens: 2, unreportedCalls: 0 },
      guardrail: { calls: 1, inputTokens: 0, outputTokens: 0, unreportedCalls: 1 },
    });
    expect(u.modelCalls).toBe(1);
    expect(budgetTokens(u)).toMatchObject({ input: 15, output: 3 });
  });

  it('has no budget figure while an unreported call has no estimate', () => {
    const u = emptyUsage();
    addCallUsage(u, 'agent', { inputTokens: null, outputTokens: null }, true, { inputTokens: 5, outputTokens: 1, by: 'x' });
    addCallUsage(u, 'agent', { inputTokens: null, outputTokens: null }, true, null);
    expect(budgetTokens(u)).toBeNull();
  });
});
