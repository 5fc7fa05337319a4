/**
 * A case added to a golden set from a run is run by an eval suite (the dashboard's "Run eval" and
 * instructor mode) as the bundled file's cases are; the suite records the set's version.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { nextCacheMock, nextHeadersMock, setUpActionEnv, suiteFinished as finished, type ActionEnv } from './testing/action-env';

vi.mock('next/headers', () => nextHeadersMock());
vi.mock('next/cache', () => nextCacheMock());

let env: ActionEnv;
beforeAll(async () => {
  env = await setUpActionEnv();
});
afterAll(async () => {
  await env?.cleanup();
});

describe('golden sets made from runs', () => {
  it('adds a case from a run and runs an eval suite on the set: its runs are the set\'s cases', async () => {
    const { runOneAction } = await import('./run-one');
    const { addGoldenCaseAction } = await import('./add-golden-case');
    const { startSuiteAction } = await import('./start-suite');
    const { getDb } = await import('../db/core/client');
    env.as('operator');
    const run = await runOneAction({ datasetId: 'bundled', caseId: 'S001' });
    if (!run.ok) throw new Error(JSON.stringify(run));
    const added = await addGoldenCaseAction({
      runId: run.data.runId,
      setName: 'from-runs',
      id: 'MY1',
      category: 'product_search',
      query: 'Do you sell ratchet lashing straps?',
      referenceAnswer: 'Yes: SKU-2011.',
      expectedTools: [{ name: 'search_products', args: { query: 'ratchet lashing straps' } }],
      expectedFacts: ['SKU-2011'],
    });
    expect(added).toMatchObject({ ok: true, data: { name: 'from-runs', version: 1, caseCount: 1 } });
    const suite = await startSuiteAction({ datasetId: 'bundled', goldenSet: 'from-runs' });
    if (!suite.ok) throw new Error(JSON.stringify(suite));
    expect(suite.data.total).toBe(1);
    expect(await finished(suite.data.suiteRunId)).toMatchObject({ status: 'done', error: null });
    const runs = await getDb().prisma.run.findMany({ where: { suiteRunId: suite.data.suiteRunId }, select: { caseId: true, query: true } });
    expect(runs).toEqual([{ caseId: 'MY1', query: 'Do you sell ratchet lashing straps?' }]);
    // Another tenant has no such set.
    env.as('outsider');
    expect(await startSuiteAction({ datasetId: 'bundled', goldenSet: 'from-runs' })).toMatchObject({ ok: false });
  }, 120_000);
});
