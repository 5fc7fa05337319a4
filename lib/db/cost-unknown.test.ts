/**
 * An unpriced model's cost is unknown, never $0 (issue 22, part 2): a stored run, the runs list and a
 * suite's running total give `null` for it, on both databases.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from './client';
import { getRunOrThrow } from './runs-read';
import { listRuns } from './runs-list';
import { saveRun, saveRuns } from './runs-write';
import { getSuiteLive } from './suite-live';
import { createSuiteRun } from './suites';
import { makeMeta, makeRun } from './testing/run-fixtures';
import { testProviders, type TestDatabase } from './testing/test-databases';

const providers = await testProviders();
const unpriced = { usd: null, note: 'no price for openai:unpriced', known: false };

describe.each(providers)('an unknown cost on $name', (provider) => {
  let t: TestDatabase;
  let db: Database;
  beforeAll(async () => {
    if (provider.skipReason) return;
    t = await provider.create();
    db = t.db;
  });
  afterAll(async () => {
    await t?.drop();
  });
  const test = provider.skipReason ? it.skip : it;

  test('is null in the stored run and in the runs list, never 0', async () => {
    const run = { ...makeRun({ runId: 'unpriced-1' }), mode: 'live' as const, modelId: 'openai:unpriced', costEstimate: unpriced };
    const id = await saveRun(run, makeMeta(), db);
    expect((await getRunOrThrow(id, db)).run.costEstimate).toEqual(unpriced);
    const row = (await listRuns({}, db)).items.find((r) => r.id === id)!;
    expect(row).toMatchObject({ costUsd: null, costKnown: false });
  });

  test('makes a suite’s total and its setting’s total null, not the sum of the priced runs', async () => {
    const suiteRunId = await createSuiteRun({ kind: 'matrix', config: {}, datasetName: 'd', datasetHash: 'h', total: 3 }, db);
    const priced = (runId: string, caseId: string, weaknesses: string[]) => ({ run: makeRun({ runId, caseId, weaknesses, costUsd: 0.25 }), meta: makeMeta({ suiteRunId }) });
    await saveRuns(
      [
        priced('s-a', 'c1', []),
        priced('s-b', 'c1', ['naive_retry']),
        { run: { ...makeRun({ runId: 's-c', caseId: 'c2', weaknesses: ['naive_retry'] }), costEstimate: unpriced }, meta: makeMeta({ suiteRunId }) },
      ],
      db,
    );
    const live = await getSuiteLive(suiteRunId, db);
    expect(live.cost).toMatchObject({ usd: null, known: false });
    expect(live.cost.bySetting.none).toEqual({ usd: 0.25, known: true });
    expect(live.cost.bySetting.naive_retry).toEqual({ usd: null, known: false });
  });
});
