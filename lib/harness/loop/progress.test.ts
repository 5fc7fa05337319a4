import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import { resolveConfig } from '../config';
import { RunResultSchema, type RunResult } from '../types';
import { scriptedModel } from '../testing/scripted-model';
import { runHarness } from './run';
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

function options(onStep: (r: RunResult) => void | Promise<void>) {
  const config = resolveConfig({});
  return {
    config,
    executor: new LocalToolExecutor(new StockroomEnvironment(dataset, config.weaknesses)),
    model: scriptedModel([{ calls: [['get_stock_level', { sku: 'SKU-2001' }]] }, { calls: [['get_stock_level', { sku: 'SKU-2002' }]] }, { text: 'done' }]),
    systemPrompt: dataset.systemPrompt,
    floatKeys: dataset.floatKeys,
    onStep,
  };
}

describe('onStep (live progress seam)', () => {
  it('reports the run so far after every step that continues, as storable running snapshots under the final run id', async () => {
    const seen: RunResult[] = [];
    const final = await runHarness({ query: 'How many?', caseId: null }, options((r) => void seen.push(r)));
    // Once before the first model call, then after each of the two tool steps; the third turn answers
    // and ends the run (the final result, not a snapshot).
    expect(seen.map((r) => r.steps)).toEqual([0, 1, 2]);
    expect(seen.every((r) => r.status === 'running' && r.runId === final.runId)).toBe(true);
    expect(seen.map((r) => r.trajectory.filter((s) => s.kind === 'tool_call').length)).toEqual([0, 1, 2]);
    for (const r of seen) expect(RunResultSchema.safeParse(r).success).toBe(true);
    expect(final.status).toBe('finished');
    expect(final.steps).toBe(3);
  });

  it('keeps running when the observer fails', async () => {
    const final = await runHarness({ query: 'How many?', caseId: null }, options(() => Promise.reject(new Error('store down'))));
    expect(final.terminationReason).toBe('COMPLETED');
    expect(final.steps).toBe(3);
  });
});
