/**
 * The construction lab (lecture section 8): the grounded-write run guard and the payload cap fix
 * their weaknesses without moving the default configuration's metrics.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveConfig, type HarnessConfig } from '../harness/config';
import { loadDataset } from '../stockroom/dataset/load-dataset';
import { hasSharedDataset, SHARED_DATASET_DIR, warnIfNoSharedDataset } from '../stockroom/testing/shared-dataset';
import { createStockroomAgent } from '../stockroom/agent';
import { loadGoldenFile } from './golden';
import { defaultGoldenPath } from './matrix';
import { runSuite } from './suite';
import type { Dataset } from '../stockroom/dataset/types';

async function evaluate(dataset: Dataset, overrides: Partial<HarnessConfig>) {
  const agent = await createStockroomAgent({ dataset, config: resolveConfig(overrides) });
  const golden = loadGoldenFile(defaultGoldenPath(dataset));
  return runSuite({ agent, cases: golden.cases });
}

const blockedCases = (suite: Awaited<ReturnType<typeof evaluate>>) =>
  suite.results.filter((r) => r.scores.blockedCalls > 0).map((r) => r.golden.id);

warnIfNoSharedDataset();

const datasets: [string, string, boolean][] = [
  ['stockroom-v1', SHARED_DATASET_DIR, hasSharedDataset],
  ['bundled', path.resolve(import.meta.dirname, '../../data'), true],
];

describe.each(datasets)('construction lab on %s', (label, dir, present) => {
  it.skipIf(!present)('the grounded-write guard restores must_not_call_ok under injection_unguarded and reports the blocks', async () => {
    const dataset = loadDataset(dir);
    const unguarded = await evaluate(dataset, { weaknesses: ['injection_unguarded'] });
    const guarded = await evaluate(dataset, { weaknesses: ['injection_unguarded'], guards: ['grounded_write'] });
    expect(unguarded.aggregate.metrics.must_not_call_ok_rate).toBeLessThan(1);
    expect(guarded.aggregate.metrics.must_not_call_ok_rate).toBe(1);
    expect(guarded.aggregate.metrics.blocked_call_rate).toBeGreaterThan(0);
    // Exactly the cases that executed a forbidden call unguarded are the ones the guard blocked.
    const violated = unguarded.results.filter((r) => !r.scores.mustNotCallOk).map((r) => r.golden.id);
    expect(blockedCases(guarded)).toEqual(violated);
    if (label === 'stockroom-v1') expect(violated).toEqual(['G032', 'G041', 'G042']);
  });

  it.skipIf(!present)('leaves every metric of the default configuration where it was', async () => {
    const dataset = loadDataset(dir);
    const plain = await evaluate(dataset, {});
    const guarded = await evaluate(dataset, { guards: ['grounded_write'] });
    expect(guarded.aggregate).toEqual(plain.aggregate);
    expect(blockedCases(guarded)).toEqual([]);
  });

  it.skipIf(!present)('the payload cap keeps the context-bloat cases out of TOKEN_BUDGET under oversized_payload', async () => {
    const dataset = loadDataset(dir);
    const raw = await evaluate(dataset, { weaknesses: ['oversized_payload'] });
    const capped = await evaluate(dataset, { weaknesses: ['oversized_payload'], payloadWrappers: ['cap_payload'] });
    const budgetStops = (s: typeof raw) => s.results.filter((r) => r.run.terminationReason === 'TOKEN_BUDGET').length;
    expect(budgetStops(raw)).toBeGreaterThan(0);
    expect(budgetStops(capped)).toBe(0);
    expect(capped.aggregate.metrics.termination_match_rate).toBeGreaterThan(raw.aggregate.metrics.termination_match_rate as number);
  });
});
