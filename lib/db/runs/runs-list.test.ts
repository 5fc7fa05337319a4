import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidInputError } from '../core/errors';
import { countRuns, listRunModelIds, listRuns, RUN_SORT_KEYS, type RunSort } from './runs-list';
import { scoredEvaluatorNames } from '../review/run-scores';
import { saveRun, saveRuns } from './runs-write';
import { makeMeta, makeRun } from '../testing/run-fixtures';
import { testProviders, type TestDatabase } from '../testing/test-databases';
import type { RunFilters } from './run-filters';
import type { RunListItem } from './types';
import { describeOnDatabases } from '../testing/on-databases';


/** better-sqlite3 ships no types: the few calls the plan test makes (and the prototype it wraps). */
interface RawStatement {
  bind(...args: unknown[]): RawStatement;
  all(...args: unknown[]): unknown[];
}
interface RawDb {
  prepare(sql: string): RawStatement;
  close(): void;
}
const BetterSqlite = createRequire(import.meta.url)('better-sqlite3') as { new (file: string, options?: { readonly?: boolean }): RawDb; prototype: RawDb };
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

  test('counts exactly the runs it lists, whatever the filters', async () => {
    const sort: RunSort = { key: 'startedAt', dir: 'desc' };
    const middle = new Date(Date.UTC(2025, 0, 1, 0, 6));
    const filterSets: RunFilters[] = [
      {},
      { tenant: 'kittiwake' },
      { tenant: 'another-tenant' },
      { tenant: 'kittiwake', setting: 'naive_retry' },
      { tenant: 'kittiwake', datasetName: 'other', category: 'lookup' },
      { tenant: 'kittiwake', terminationReason: 'MAX_STEPS', caseId: 'case-2' },
      { tenant: 'kittiwake', flags: ['naive_retry', 'oversized_payload'] },
      { tenant: 'kittiwake', source: 'harness', status: 'finished', transport: 'local' },
      { tenant: 'kittiwake', minDurationMs: 150, minCostUsd: 0.015 },
      { tenant: 'kittiwake', startedFrom: middle },
      { tenant: 'kittiwake', startedBefore: middle, labelled: 'no' },
      { tenant: 'kittiwake', labelled: 'yes' },
      { tenant: 'kittiwake', toolError: true },
    ];
    for (const filters of filterSets) {
      const listed = (await collect(sort, filters, 50)).length;
      expect(await countRuns(filters, {}, db), JSON.stringify(filters)).toEqual({ count: listed, exact: true });
    }
    expect(await countRuns({ tenant: 'kittiwake', setting: 'naive_retry' }, { cap: 3 }, db)).toEqual({ count: 3, exact: false });
  });

  test("lists the tenant's distinct model ids and scoring evaluators in order, another tenant's not", async () => {
    const models = ['zeta-model', 'alpha-model', 'zeta-model', 'mid-model'];
    const ids: string[] = [];
    for (const [i, modelId] of models.entries()) ids.push(await saveRun({ ...makeRun({ runId: `m${i}` }), modelId }, makeMeta({ tenant: 'models-tenant' }), db));
    await saveRun({ ...makeRun({ runId: 'm-other' }), modelId: 'other-model' }, makeMeta({ tenant: 'other-models-tenant' }), db);
    expect(await listRunModelIds('models-tenant', db)).toEqual(['alpha-model', 'mid-model', 'zeta-model']);
    expect(await listRunModelIds('no-runs-tenant', db)).toEqual([]);
    const score = (runId: string, tenant: string, evaluatorName: string, n: number) => ({
      id: `score-${runId}-${evaluatorName}`,
      tenant,
      runId,
      evaluatorId: `ev-${evaluatorName}`,
      evaluatorName,
      evaluatorVersion: 1,
      kind: 'loop',
      score: n,
      detail: '',
      createdAt: new Date(),
    });
    await db.prisma.runScore.createMany({
      data: [score(ids[0]!, 'models-tenant', 'tool errors', 1), score(ids[1]!, 'models-tenant', 'tool errors', 0.5), score(ids[1]!, 'models-tenant', 'cost', 0), score(ids[2]!, 'other-models-tenant', 'judge', 1)],
    });
    expect(await scoredEvaluatorNames('models-tenant', db)).toEqual(['cost', 'tool errors']);
    expect(await scoredEvaluatorNames('no-runs-tenant', db)).toEqual([]);
  });

  test('refuses a cursor from another sort order or a forged one', async () => {
    const page = await listRuns({ sort: { key: 'costUsd', dir: 'asc' }, limit: 3 }, db);
    await expect(listRuns({ sort: { key: 'steps', dir: 'asc' }, cursor: page.nextCursor }, db)).rejects.toBeInstanceOf(InvalidInputError);
    await expect(listRuns({ cursor: 'not-a-cursor' }, db)).rejects.toBeInstanceOf(InvalidInputError);
  });
});

describe('countRuns on SQLite', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await (await testProviders()).find((p) => p.name === 'sqlite')!.create();
    await saveRuns(
      Array.from({ length: 12 }, (_, i) => ({ run: makeRun({ runId: `c${i}`, weaknesses: FLAGS[i % 4] }), meta: makeMeta({ tenant: i % 3 ? 'kittiwake' : 'puffin' }) })),
      t.db,
    );
  });
  afterAll(async () => {
    await t?.drop();
  });

  /** The query plans of the statements `fn` runs that count (EXPLAIN QUERY PLAN, one line per step). */
  async function countPlans(fn: () => Promise<unknown>): Promise<string[][]> {
    const statements: Array<{ sql: string; args: unknown[] }> = [];
    const prepare = BetterSqlite.prototype.prepare;
    BetterSqlite.prototype.prepare = function (this: RawDb, sql: string) {
      const statement = prepare.call(this, sql);
      const seen = { sql, args: [] as unknown[] };
      statements.push(seen);
      const bind = statement.bind.bind(statement);
      statement.bind = (...args: unknown[]) => ((seen.args = args), bind(...args));
      return statement;
    } as typeof prepare;
    try {
      await fn();
    } finally {
      BetterSqlite.prototype.prepare = prepare;
    }
    const file = new BetterSqlite(t.url.replace(/^file:/, ''), { readonly: true });
    try {
      return statements
        .filter(({ sql }) => /count\(/i.test(sql))
        .map(({ sql, args }) => (file.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...args) as Array<{ detail: string }>).map((r) => r.detail));
    } finally {
      file.close();
    }
  }

  // The runs page's count stops at 10,000, but Prisma's count({ take }) walked the primary key in id
  // order and read each row of Run to test the tenant and the setting: up to the cap's rows (issue 36).
  it("counts a tenant's runs, or one setting's, from an index alone, reading no row of Run", async () => {
    const cases: Array<[RunFilters, number]> = [
      [{ tenant: 'kittiwake' }, 8],
      [{ tenant: 'kittiwake', setting: 'naive_retry' }, 2],
      [{ tenant: 'puffin', terminationReason: 'COMPLETED' }, 4],
    ];
    for (const [filters, expected] of cases) {
      let counted: unknown;
      const plans = await countPlans(async () => (counted = await countRuns(filters, {}, t.db)));
      expect(counted, JSON.stringify(filters)).toEqual({ count: expected, exact: true });
      expect(plans, JSON.stringify(filters)).toHaveLength(1);
      const plan = plans[0]!.join(' / ');
      const onRun = plans[0]!.filter((step) => /^(SCAN|SEARCH) (main\.)?(Run|r)\b/.test(step));
      expect(onRun, plan).not.toHaveLength(0);
      for (const step of onRun) expect(step, plan).toMatch(/USING COVERING INDEX/);
      // Nor are the matches sorted first: a count needs no order.
      expect(plan).not.toMatch(/TEMP B-TREE/);
    }
  });
});
