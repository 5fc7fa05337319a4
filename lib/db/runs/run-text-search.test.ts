import { beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { listMigrations, migrate } from '../../../scripts/db-migrate.mjs';
import { exportRunFile } from '../../transfer/export-runs';
import { importFile } from '../../transfer/import-file';
import type { RunResult } from '../../harness/types';
import type { Database } from '../core/client';
import { InvalidInputError } from '../core/errors';
import { searchBody } from './run-search';
import { COUNT_CAP, countRuns, listRuns, TEXT_COUNT_CAP } from './runs-list';
import { MAX_INDEXED_MATCHES, serialQuery } from './run-text-search';
import { Prisma as Sql } from '../generated/sqlite/client';
import { seededTrackingNumber, seedRuns } from '../testing/bench-db';
import { deleteRun, saveRun } from './runs-write';
import { makeMeta, makeRun } from '../testing/run-fixtures';
import { testProviders } from '../testing/test-databases';
import { describeOnDatabases } from '../testing/on-databases';

const providers = await testProviders();

/** A run whose tracking number appears only in one tool result (not in its question or answer). */
function runWithToolResult(runId: string, tracking: string): RunResult {
  const run = makeRun({ runId, query: 'Where is my order?' });
  const step = run.trajectory.find((s) => s.kind === 'tool_call' && s.name === 'get_stock');
  if (!step || step.kind !== 'tool_call') throw new Error('fixture has no get_stock call');
  step.resultContent = { order: 'O-17', shipment: { carrier: 'UPS', tracking } };
  return run;
}

/** A run whose tracking number appears only in its final answer. */
function runWithAnswer(runId: string, tracking: string): RunResult {
  return { ...makeRun({ runId, query: 'Has order O-18 shipped?' }), finalAnswer: `It shipped; tracking ${tracking}.` };
}

const ids = async (db: Database, text: string, tenant = 'kittiwake') => (await listRuns({ filters: { tenant, text }, limit: 200 }, db)).items.map((r) => r.id).sort();

describeOnDatabases('run text search on $name', ({ provider, test, db }) => {
  const saved: Record<string, string> = {};

  beforeAll(async () => {
    if (provider.skipReason) return;
    saved.inResult = await saveRun(runWithToolResult('a', '1Z999AA10123456784'), makeMeta({ tenant: 'kittiwake' }), db);
    saved.inAnswer = await saveRun(runWithAnswer('b', '1z999aa10123456784'), makeMeta({ tenant: 'kittiwake' }), db);
    saved.plain = await saveRun(makeRun({ runId: 'c' }), makeMeta({ tenant: 'kittiwake', config: { guards: ['grounded_write'] }, }), db);
    saved.otherTenant = await saveRun(runWithToolResult('d', '1Z999AA10123456784'), makeMeta({ tenant: 'puffin' }), db);
  });

  test('finds a tracking number that appears only in a tool result or only in an answer, by any part of it', async () => {
    expect(await ids(db, '1Z999AA10123456784')).toEqual([saved.inResult, saved.inAnswer].sort());
    // A substring inside the token, in another case.
    expect(await ids(db, 'aa1012345')).toEqual([saved.inResult, saved.inAnswer].sort());
    expect(await countRuns({ tenant: 'kittiwake', text: '1Z999AA10123456784' }, {}, db)).toEqual({ count: 2, exact: true });
  });

  test('says where the text matched', async () => {
    const { items } = await listRuns({ filters: { tenant: 'kittiwake', text: '1Z999AA1' }, limit: 10 }, db);
    const byId = new Map(items.map((r) => [r.id, r.match]));
    expect(byId.get(saved.inResult!)).toMatchObject({ field: 'tool result', tool: 'get_stock', match: '1Z999AA1' });
    expect(byId.get(saved.inAnswer!)).toMatchObject({ field: 'answer', tool: null, match: '1z999aa1' });
    expect(byId.get(saved.inAnswer!)?.before).toContain('tracking ');
  });

  test("does not return another tenant's matching runs", async () => {
    expect(await ids(db, '1Z999AA10123456784', 'puffin')).toEqual([saved.otherTenant]);
    expect(await ids(db, '1Z999AA10123456784')).not.toContain(saved.otherTenant);
  });

  test('treats search syntax and wildcards as literal text, without errors', async () => {
    for (const text of ['"1Z999"', '1Z999""', 'AND OR NOT', 'NEAR(a b)', '1Z999*', 'body:1Z', '(((', '%_%', '%%%', '1Z999_A', '1Z%4567', "'; DROP TABLE Run; --"]) {
      expect(await ids(db, text), text).toEqual([]);
    }
    // A backslash is literal too (the fixture's arguments hold JSON escapes, so every run has one).
    expect(await ids(db, 'a\\nb')).toHaveLength(3);
    expect(await ids(db, 'O-1')).toEqual([saved.inResult, saved.inAnswer].sort());
  });

  test('rejects an over-long or too short text naming the field', async () => {
    for (const text of ['x'.repeat(201), 'ab', ' a ']) {
      const err = await listRuns({ filters: { text } }, db).catch((e: unknown) => e);
      expect(err, text).toBeInstanceOf(InvalidInputError);
      expect((err as InvalidInputError).field).toBe('text');
      await expect(countRuns({ text }, {}, db)).rejects.toBeInstanceOf(InvalidInputError);
    }
  });

  test('filters by model and by configured guard', async () => {
    expect((await listRuns({ filters: { tenant: 'kittiwake', guard: 'grounded_write' } }, db)).items.map((r) => r.id)).toEqual([saved.plain]);
    const model = (await listRuns({ filters: { tenant: 'kittiwake' }, limit: 1 }, db)).items[0]!.modelId;
    expect((await listRuns({ filters: { tenant: 'kittiwake', modelId: model } }, db)).items).toHaveLength(3);
    expect((await listRuns({ filters: { tenant: 'kittiwake', modelId: 'no-such-model' } }, db)).items).toHaveLength(0);
  });

  test('an imported run file is searchable in the tenant it was imported into', async () => {
    const id = await saveRun(runWithToolResult('f', 'TRK-IMPORTED-9'), makeMeta({ tenant: 'kittiwake' }), db);
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'search-import-')), 'run.json');
    fs.writeFileSync(file, JSON.stringify(await exportRunFile(id, 'kittiwake', db)));
    await deleteRun(id, db);
    const imported = await importFile(file, { tenant: 'tern', db });
    expect(imported.kind === 'run' && imported.ids).toHaveLength(1);
    expect(await ids(db, 'TRK-IMPORTED', 'tern')).toEqual(imported.kind === 'run' ? imported.ids : []);
    expect(await ids(db, 'TRK-IMPORTED')).toEqual([]);
  });

  test('a deleted run leaves the index', async () => {
    const id = await saveRun(runWithAnswer('e', 'TRK-DELETE-ME-42'), makeMeta({ tenant: 'kittiwake' }), db);
    expect(await ids(db, 'TRK-DELETE-ME')).toEqual([id]);
    await deleteRun(id, db);
    expect(await ids(db, 'TRK-DELETE-ME')).toEqual([]);
    expect(await db.prisma.runSearch.count({ where: { runId: id } })).toBe(0);
    if (db.provider === 'sqlite') {
      // The FTS5 index itself holds no row for it (an external-content index must be kept by the triggers).
      const rows = await db.prisma.$queryRawUnsafe<Array<{ n: number | bigint }>>(`SELECT count(*) AS n FROM "RunSearchFts" WHERE "RunSearchFts" MATCH '"TRK-DELETE"'`);
      expect(Number(rows[0]!.n)).toBe(0);
      await db.prisma.$executeRawUnsafe(`INSERT INTO "RunSearchFts" ("RunSearchFts", "rank") VALUES ('integrity-check', 1)`);
    }
  });
});

describe.each(providers)('the run search migration on $name', (provider) => {
  const test = provider.skipReason ? it.skip : it;

  test('backfills the runs stored before it, in the layout new runs are written in', async () => {
    const t = await provider.create();
    try {
      const run = runWithToolResult('old', 'TRK-BACKFILL-77');
      const id = await saveRun(run, makeMeta({ config: { guards: ['grounded_write'] } }), t.db);
      // Put the database back to the previous migration with this run stored.
      const p = t.db.prisma;
      if (provider.name === 'sqlite') await p.$executeRawUnsafe('DROP TABLE "RunSearchFts"');
      await p.$executeRawUnsafe('DROP TABLE "RunSearch"');
      await p.$executeRawUnsafe('DROP TABLE "RunGuardOn"');
      await p.$executeRawUnsafe('DROP INDEX "Run_tenant_modelId_idx"');
      const mine = listMigrations(provider.name).find((m) => m.name.endsWith('_run_search'))!.name;
      await p.$executeRawUnsafe(`DELETE FROM "_stockroom_migrations" WHERE "name" = '${mine}'`);
      expect((await migrate({ url: t.url })).applied).toEqual([mine]);

      expect(await ids(t.db, 'TRK-BACKFILL')).toEqual([id]);
      const row = await p.runSearch.findUniqueOrThrow({ where: { runId: id } });
      expect(row.body).toBe(searchBody(run));
      expect((await listRuns({ filters: { guard: 'grounded_write' } }, t.db)).items.map((r) => r.id)).toEqual([id]);
    } finally {
      await t.drop();
    }
  });
});

describe.each(providers)('text search over more runs than the index plan takes, on $name', (provider) => {
  const test = provider.skipReason ? it.skip : it;

  test('a common text pages like the plain list, a rare one is found through the index, and a text search counts to TEXT_COUNT_CAP', async () => {
    const t = await provider.create();
    try {
      const seeded = MAX_INDEXED_MATCHES + 2_000;
      await seedRuns(t.db, seeded);
      const tenant = (await t.db.prisma.run.findFirstOrThrow({ select: { tenant: true } })).tenant;
      // Every seeded question holds 'widgets of kind': common, so pages walk the runs in sort order.
      const plain = await listRuns({ filters: { tenant }, limit: 50 }, t.db);
      const common = await listRuns({ filters: { tenant, text: 'widgets of kind' }, limit: 50 }, t.db);
      expect(common.items.map((r) => r.id)).toEqual(plain.items.map((r) => r.id));
      const plainNext = await listRuns({ filters: { tenant }, limit: 50, cursor: plain.nextCursor }, t.db);
      const commonNext = await listRuns({ filters: { tenant, text: 'widgets of kind' }, limit: 50, cursor: common.nextCursor }, t.db);
      expect(commonNext.items.map((r) => r.id)).toEqual(plainNext.items.map((r) => r.id));
      // A tracking number is in one run's tool result only.
      const n = 4321;
      const rare = await listRuns({ filters: { tenant, text: seededTrackingNumber(n) }, limit: 50 }, t.db);
      const runOf = await t.db.prisma.run.findFirstOrThrow({ where: { harnessRunId: `seed-${n}` }, select: { id: true } });
      expect(rare.items.map((r) => r.id)).toEqual([runOf.id]);
      // Counts: a text search stops at TEXT_COUNT_CAP ("1,000+"), other filters at COUNT_CAP; fewer matches are exact.
      expect(await countRuns({ tenant, text: 'widgets of kind' }, {}, t.db)).toEqual({ count: TEXT_COUNT_CAP, exact: false });
      expect(await countRuns({ tenant }, {}, t.db)).toEqual({ count: COUNT_CAP, exact: false });
      const skus = Array.from({ length: seeded }, (_, i) => i).filter((i) => String(i % 20000).padStart(5, '0').startsWith('0004')).length;
      expect(await countRuns({ tenant, text: 'SKU-0004' }, {}, t.db)).toEqual({ count: skus, exact: true });
    } finally {
      await t.drop();
    }
  });
});

describe.each(providers.filter((p) => p.name === 'postgres'))('a text search\'s statements on $name', (provider) => {
  const test = provider.skipReason ? it.skip : it;

  // At a million runs a Gather over two workers made each walk its own share of the sort index until
  // the leader had a page: 9,300 search rows probed instead of 4,400, 0.8-1.3 s instead of 45-300 ms.
  test('run without parallel workers, and leave the pooled connection as it was', async () => {
    const t = await provider.create();
    try {
      const setting = Sql.sql`SELECT current_setting('max_parallel_workers_per_gather') AS "v"`;
      const outside = await t.db.prisma.$queryRaw<Array<{ v: string }>>(setting);
      expect(outside[0]!.v).not.toBe('0');
      expect(await serialQuery<{ v: string }>(t.db, setting)).toEqual([{ v: '0' }]);
      expect(await t.db.prisma.$queryRaw<Array<{ v: string }>>(setting)).toEqual(outside);
    } finally {
      await t.drop();
    }
  });
});
