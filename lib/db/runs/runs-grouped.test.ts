import { beforeAll, expect } from 'vitest';
import { InvalidInputError } from '../core/errors';
import { listRunsGrouped, type GroupedRow } from './runs-grouped';
import { saveRun, saveRuns } from './runs-write';
import { createSuiteRun } from '../suites/suites';
import { makeMeta, makeRun } from '../testing/run-fixtures';
import { describeOnDatabases } from '../testing/on-databases';

const label = (r: GroupedRow) => (r.kind === 'suite' ? `suite:${r.suite.runs}` : `run:${r.run.harnessRunId}`);

describeOnDatabases('runs grouped by suite on $name', ({ provider, test, db }) => {
  let suiteId = '';

  beforeAll(async () => {
    if (provider.skipReason) return;
    await saveRun(makeRun({ runId: 'before', startedAt: '2025-01-01T00:00:00.000Z' }), makeMeta(), db);
    suiteId = await createSuiteRun({ kind: 'matrix', total: 122, config: {}, datasetName: 'stockroom-v1', datasetHash: 'abc123' }, db);
    await saveRuns(
      Array.from({ length: 122 }, (_, i) => ({
        run: makeRun({ runId: `s${i}`, caseId: `C${i}`, weaknesses: i % 2 ? ['naive_retry'] : [], rounds: 1 }),
        meta: makeMeta({ suiteRunId: suiteId }),
      })),
      db,
    );
    await saveRun(makeRun({ runId: 'after', startedAt: '2099-01-01T00:00:00.000Z' }), makeMeta(), db);
    await saveRun(makeRun({ runId: 'puffin', startedAt: '2099-01-01T00:00:00.000Z' }), makeMeta({ tenant: 'puffin' }), db);
  });

  test('a suite of 122 runs is one row with its count, between the single runs by date', async () => {
    const page = await listRunsGrouped({ filters: { tenant: 'kittiwake' } }, db);
    expect(page.rows.map(label)).toEqual(['run:after', 'suite:122', 'run:before']);
    expect(page.nextCursor).toBeNull();
    const suite = page.rows[1];
    expect(suite?.kind === 'suite' && suite.suite.id).toBe(suiteId);
  });

  test('counts only the suite runs that match the filters, and pages by one cursor', async () => {
    const flagged = await listRunsGrouped({ filters: { tenant: 'kittiwake', flags: ['naive_retry'] } }, db);
    expect(flagged.rows.map(label)).toEqual(['suite:61']);
    const first = await listRunsGrouped({ filters: { tenant: 'kittiwake' }, limit: 2 }, db);
    expect(first.rows.map(label)).toEqual(['run:after', 'suite:122']);
    const second = await listRunsGrouped({ filters: { tenant: 'kittiwake' }, limit: 2, cursor: first.nextCursor }, db);
    expect(second.rows.map(label)).toEqual(['run:before']);
  });

  test("never shows another tenant's runs or suites", async () => {
    expect((await listRunsGrouped({ filters: { tenant: 'puffin' } }, db)).rows.map(label)).toEqual(['run:puffin']);
  });

  test('refuses a text search or a bad cursor naming the field', async () => {
    await expect(listRunsGrouped({ filters: { text: 'widgets' } }, db)).rejects.toMatchObject({ field: 'text' });
    await expect(listRunsGrouped({ cursor: 'nope' }, db)).rejects.toBeInstanceOf(InvalidInputError);
  });
});
