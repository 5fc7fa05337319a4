import { beforeAll, expect } from 'vitest';
import { InvalidInputError } from '../core/errors';
import { countRuns, listRuns, RUN_SORT_KEYS, type RunSort } from './runs-list';
import { saveRuns } from './runs-write';
import { makeMeta, makeRun } from '../testing/run-fixtures';
import { describeOnDatabases } from '../testing/on-databases';
import type { RunListItem } from './types';

const FLAGS = [[], ['naive_retry'], ['oversized_payload'], ['naive_retry', 'oversized_payload']];
const REASONS = ['COMPLETED', 'MAX_STEPS', 'REPEATED_CALL'] as const;

describeOnDatabases('listRuns on $name', ({ provider, test, db }) => {
  beforeAll(async () => {
    if (provider.skipReason) return;
    // 37 runs with deliberate ties in every sort column, so pagination must break ties by id.
    await saveRuns(
      Array.from({ length: 37 }, (_, i) => ({
        run: makeRun({
          runId: `r${i}`,
          caseId: `case-${i % 7}`,
          query: i % 5 === 0 ? `Where is the BLUE Widget #${i}?` : `How many gadgets ${i}?`,
          weaknesses: FLAGS[i % 4],
          terminationReason: REASONS[i % 3],
          startedAt: new Date(Date.UTC(2025, 0, 1, 0, Math.floor(i / 3))).toISOString(),
          durationMs: (i % 4) * 100,
          totalTokens: 1000 + (i % 6),
          costUsd: (i % 5) / 100,
          rounds: 1 + (i % 3),
        }),
        meta: makeMeta({ datasetName: i % 2 ? 'stockroom-v1' : 'other', category: i % 3 ? 'lookup' : 'restock' }),
      })),
      db,
    );
  });

  async function collect(sort: RunSort, filters = {}, limit = 5): Promise<RunListItem[]> {
    const out: RunListItem[] = [];
    let cursor: string | null = null;
    do {
      const page = await listRuns({ sort, filters, cursor, limit }, db);
      expect(page.items.length).toBeLessThanOrEqual(limit);
      out.push(...page.items);
      cursor = page.nextCursor;
    } while (cursor);
    return out;
  }

  for (const key of RUN_SORT_KEYS) {
    for (const dir of ['asc', 'desc'] as const) {
      test(`pages through every run exactly once in ${key} ${dir} order, ties broken by id`, async () => {
        const all = await collect({ key, dir });
        expect(all).toHaveLength(37);
        expect(new Set(all.map((r) => r.id)).size).toBe(37);
        const value = (r: RunListItem) => (key === 'startedAt' ? Date.parse(r.startedAt) : (r[key] ?? 0));
        const sorted = [...all].sort((a, b) => {
          const d = value(a) - value(b) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
          return dir === 'asc' ? d : -d;
        });
        expect(all.map((r) => r.id)).toEqual(sorted.map((r) => r.id));
      });
    }
  }

  test('filters by dataset, setting, flags, category, termination reason and case id', async () => {
    const sort: RunSort = { key: 'startedAt', dir: 'desc' };
    expect((await collect(sort, { datasetName: 'other' })).every((r) => r.datasetName === 'other')).toBe(true);
    const both = await collect(sort, { setting: 'naive_retry+oversized_payload' });
    expect(both.length).toBe(9);
    const withRetry = await collect(sort, { flags: ['naive_retry'] });
    expect(withRetry.length).toBe(18);
    expect(withRetry.every((r) => r.weaknesses.includes('naive_retry'))).toBe(true);
    expect((await collect(sort, { flags: ['naive_retry', 'oversized_payload'] })).map((r) => r.id).sort()).toEqual(both.map((r) => r.id).sort());
    expect((await collect(sort, { setting: 'none' })).every((r) => r.weaknesses.length === 0)).toBe(true);
    const restock = await collect(sort, { category: 'restock', terminationReason: 'COMPLETED' });
    expect(restock.length).toBe(13);
    expect(restock.every((r) => r.category === 'restock' && r.terminationReason === 'COMPLETED')).toBe(true);
    expect((await collect(sort, { caseId: 'case-3' })).map((r) => r.harnessRunId).sort()).toEqual(['r10', 'r17', 'r24', 'r3', 'r31']);
  });

  test('searches the text case-insensitively', async () => {
    // Every fixture answers "There are 12 blue widgets."; only every fifth query says "BLUE Widget #".
    expect(await collect({ key: 'startedAt', dir: 'desc' }, { text: 'blue widget' })).toHaveLength(37);
    const hits = await collect({ key: 'startedAt', dir: 'desc' }, { text: 'blue widget #' });
    expect(hits.map((r) => r.harnessRunId).sort()).toEqual(['r0', 'r10', 'r15', 'r20', 'r25', 'r30', 'r35', 'r5']);
    expect(await collect({ key: 'startedAt', dir: 'desc' }, { text: '100%' })).toEqual([]);
  });

  test('counts matching runs and reports a lower bound past the cap', async () => {
    expect(await countRuns({}, {}, db)).toEqual({ count: 37, exact: true });
    expect(await countRuns({ flags: ['naive_retry'] }, {}, db)).toEqual({ count: 18, exact: true });
    expect(await countRuns({}, { cap: 10 }, db)).toEqual({ count: 10, exact: false });
  });

  test('refuses a cursor from another sort order or a forged one', async () => {
    const page = await listRuns({ sort: { key: 'costUsd', dir: 'asc' }, limit: 3 }, db);
    await expect(listRuns({ sort: { key: 'steps', dir: 'asc' }, cursor: page.nextCursor }, db)).rejects.toBeInstanceOf(InvalidInputError);
    await expect(listRuns({ cursor: 'not-a-cursor' }, db)).rejects.toBeInstanceOf(InvalidInputError);
  });
});
