/**
 * An unpriced model's cost is unknown, never $0 (issue 22, part 2): a stored run, the runs list and a
 * suite's running total give `null` for it, and the runs list sorted by cost puts it last in both
 * directions (never among the $0 runs), on both databases.
 */
import { expect } from 'vitest';
import { getRunOrThrow } from './runs-read';
import { listRuns, type RunSort } from './runs-list';
import { saveRun, saveRuns } from './runs-write';
import { getSuiteLive } from '../suites/suite-live';
import { createSuiteRun } from '../suites/suites';
import { makeMeta, makeRun } from '../testing/run-fixtures';
import { describeOnDatabases } from '../testing/on-databases';

const unpriced = { usd: null, note: 'no price for openai:unpriced', known: false };

describeOnDatabases('an unknown cost on $name', ({ test, db }) => {
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
    expect(live.cost.bySetting.none).toEqual({ usd: 0.25, known: true, unreportedCalls: 0 });
    expect(live.cost.bySetting.naive_retry).toEqual({ usd: null, known: false, unreportedCalls: 0 });
  });

  test('sorts last by cost in both directions, page after page, with and without a text search', async () => {
    // Priced runs including a free one (an unknown cost must not sort as $0), and unknown ones between them.
    const prices = [0, 0.02, 0.5, 0.01, 0.3];
    const runs = [
      ...prices.map((usd, i) => ({ run: makeRun({ runId: `cs-p${i}`, query: `cost sort probe ${i}`, costUsd: usd }), meta: makeMeta({ datasetName: 'cost-sort' }) })),
      ...[0, 1, 2].map((i) => ({
        run: { ...makeRun({ runId: `cs-u${i}`, query: `cost sort probe unknown ${i}` }), mode: 'live' as const, modelId: 'openai:unpriced', costEstimate: unpriced },
        meta: makeMeta({ datasetName: 'cost-sort' }),
      })),
    ];
    await saveRuns(runs, db);
    const collect = async (sort: RunSort, filters: object) => {
      const out: Array<{ harnessRunId: string; costUsd: number | null }> = [];
      let cursor: string | null = null;
      do {
        const page = await listRuns({ sort, filters: { datasetName: 'cost-sort', ...filters }, cursor, limit: 2 }, db);
        out.push(...page.items);
        cursor = page.nextCursor;
      } while (cursor);
      return out;
    };
    for (const filters of [{}, { text: 'cost sort probe' }]) {
      for (const dir of ['asc', 'desc'] as const) {
        const all = await collect({ key: 'costUsd', dir }, filters);
        expect(all).toHaveLength(runs.length);
        const known = all.filter((r) => r.costUsd !== null);
        // Every priced run comes before every unknown one…
        expect(all.slice(0, known.length)).toEqual(known);
        expect(all.slice(known.length).map((r) => r.harnessRunId).sort()).toEqual(['cs-u0', 'cs-u1', 'cs-u2']);
        // …and the priced ones are in cost order.
        const costs = known.map((r) => r.costUsd as number);
        expect(costs).toEqual([...prices].sort((a, b) => (dir === 'asc' ? a - b : b - a)));
      }
    }
  });
});
