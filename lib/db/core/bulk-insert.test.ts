/**
 * Issue 36, OTLP ingest: on SQLite, Prisma's path writes a table's rows as one JSON value expanded by
 * json_each instead of one bound value per cell. The rows must be the ones the direct path
 * (insertSqlite, bound as sqliteValue binds) stores: every column's storage class and value, for a
 * run's dozen tables and for spans (bigint nanoseconds past 2^53, booleans, dates, nulls, JSON text).
 * On PostgreSQL the rows travel as one JSON value a table too (json_populate_recordset): each column
 * must read back as the value given, a float to its last digit.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../../../scripts/db-migrate.mjs';
import { BlobSet } from './blobs';
import { insertAll, insertSqlite, writeTables, type TableRows } from './bulk-insert';
import { openDatabase, type Database } from './client';
import { buildRunRows } from '../runs/run-rows';
import { runTables } from '../runs/runs-write';
import { sqliteValue } from './sqlite-direct';
import { makeMeta, makeRun } from '../testing/run-fixtures';
import { createTestDatabaseUrl, testProviders, type TestDatabase } from '../testing/test-databases';
import { holdingClient } from './pg-adapter';

let viaPrisma: { db: Database; drop: () => Promise<void> };
let direct: { db: Database; drop: () => Promise<void> };

async function fresh() {
  const { url, drop } = await createTestDatabaseUrl('sqlite');
  await migrate({ url });
  return { db: openDatabase(url), drop };
}

beforeAll(async () => {
  viaPrisma = await fresh();
  direct = await fresh();
});
afterAll(async () => {
  for (const d of [viaPrisma, direct]) {
    await d?.db.close();
    await d?.drop();
  }
});

function tables(): TableRows[] {
  const blobs = new BlobSet();
  const rows = [0, 1].map((i) => buildRunRows({ ...makeRun({ runId: `h-${i}`, rounds: 2 + i }), status: 'finished' }, makeMeta({ tenant: 'kittiwake' }), `run-${i}`, blobs));
  const at = new Date('2026-12-07T10:00:00.123Z');
  const spans = [0, 1, 2].map((i) => ({
    tenant: 'kittiwake', traceId: 't1', spanId: `s${i}`, parentSpanId: i === 0 ? null : 's0', name: `chat “${i}” 'q'`, kind: i, startNs: 1796086453000000001n + BigInt(i), endNs: 9007199254740993n,
    statusCode: 0, statusMessage: '', serviceName: i === 2 ? null : 'svc', attributes: JSON.stringify({ n: 1.5, s: '1e3', u: 'ünï' }), events: '[]', receivedAt: at,
  }));
  return [
    ...runTables(blobs.rows.values(), rows),
    { table: 'OtlpTrace', rows: [{ tenant: 'kittiwake', traceId: 't1', runId: null, spanCount: 3, rootEnded: true, lastSpanAt: at }] },
    { table: 'OtlpSpan', rows: spans, ignoreConflictOn: ['tenant', 'traceId', 'spanId'] },
  ];
}

/** Every row of `table` as each column's storage class and SQL literal, in a stable order. */
function dump(db: Database, table: string): string[] {
  const conn = db.direct!();
  const columns = (conn.prepare(`SELECT name FROM pragma_table_info('${table}')`) as unknown as { all(): { name: string }[] }).all().map((c) => c.name);
  const select = columns.map((c) => `'${c}=' || typeof("${c}") || ':' || quote("${c}")`).join(` || ' | ' || `);
  return ((conn.prepare(`SELECT ${select} AS r FROM "${table}"`) as unknown as { all(): { r: string }[] }).all()).map((x) => x.r).sort();
}

describe('SQLite bulk inserts through Prisma (one JSON value a table)', () => {
  it('store the same rows, column by column, as the direct path binding each value', async () => {
    const t = tables();
    await viaPrisma.db.prisma.$transaction(insertAll(viaPrisma.db, t));
    const conn = direct.db.direct!();
    conn.transaction(() => {
      for (const s of insertSqlite(t)) conn.prepare(s.sql).run(...s.values.map(sqliteValue));
    }).immediate();
    for (const { table, rows } of t) {
      if (rows.length === 0) continue;
      const mine = dump(viaPrisma.db, table);
      expect(mine).toHaveLength(rows.length);
      expect(mine, table).toEqual(dump(direct.db, table));
    }
    expect(dump(viaPrisma.db, 'OtlpSpan')[0]).toContain('startNs=integer:1796086453000000001');
  });

  it('a resent row is a no-op where the table says so, as on the direct path', async () => {
    const spans = tables().filter((x) => x.table === 'OtlpSpan');
    await viaPrisma.db.prisma.$transaction(insertAll(viaPrisma.db, spans));
    expect(dump(viaPrisma.db, 'OtlpSpan')).toHaveLength(3);
  });

  it('a row stored again on its key is updated in place (updateOn), on both paths alike', async () => {
    // What replaceRun does with a run's own row: the merge of the two write paths once lost it (a duplicate-key error).
    const row = { ...(tables().find((x) => x.table === 'Run')!.rows[0] as Record<string, unknown>), finalAnswer: 'stored again', steps: 99 };
    const again: TableRows[] = [{ table: 'Run', rows: [row], updateOn: 'id' }];
    await viaPrisma.db.prisma.$transaction(insertAll(viaPrisma.db, again));
    const conn = direct.db.direct!();
    conn.transaction(() => {
      for (const s of insertSqlite(again)) conn.prepare(s.sql).run(...s.values.map(sqliteValue));
    }).immediate();
    const mine = dump(viaPrisma.db, 'Run');
    expect(mine).toEqual(dump(direct.db, 'Run'));
    expect(mine.filter((r) => r.includes("finalAnswer=text:'stored again'"))).toHaveLength(1);
    expect(mine).toHaveLength(2);
  });
});

const postgres = (await testProviders()).find((p) => p.name === 'postgres')!;

/** A value as compared: a date in ISO form, a number or bigint by its digits (a BigInt column may be given a number). */
const norm = (v: unknown): unknown => (v instanceof Date ? v.toISOString() : typeof v === 'number' || typeof v === 'bigint' ? String(v) : v ?? null);

describe.skipIf(postgres.skipReason !== null)('PostgreSQL bulk inserts (one JSON value a table)', () => {
  let pg: Awaited<ReturnType<typeof postgres.create>>;
  beforeAll(async () => {
    pg = await postgres.create();
  });
  afterAll(async () => {
    await pg?.drop();
  });

  it('store every column as given: dates, bigints past 2^53, booleans, nulls, text, and a float to its last digit', async () => {
    const t = tables();
    // A cost of 0.1 + 0.2 (0.30000000000000004): one bound value at a time it was stored as 0.3.
    const run = t.find((x) => x.table === 'Run')!.rows[0] as Record<string, unknown>;
    run.costUsd = 0.1 + 0.2;
    await pg.db.prisma.$transaction(insertAll(pg.db, t));
    for (const { table, rows } of t) {
      if (rows.length === 0) continue;
      const columns = Object.keys(rows[0]!);
      const model = table.charAt(0).toLowerCase() + table.slice(1);
      const stored = (await (pg.db.prisma as unknown as Record<string, { findMany(): Promise<Record<string, unknown>[]> }>)[model]!.findMany()).map((r) => JSON.stringify(columns.map((c) => norm(r[c]))));
      const given = rows.map((r) => JSON.stringify(columns.map((c) => norm((r as Record<string, unknown>)[c]))));
      expect(stored.sort(), table).toEqual(given.sort());
    }
    expect((await pg.db.prisma.run.findUniqueOrThrow({ where: { id: run.id as string }, select: { costUsd: true } })).costUsd).toBe(0.30000000000000004);
  });

  it('a resent row is a no-op where the table says so, and a row stored again on its key is updated in place', async () => {
    const spans = tables().filter((x) => x.table === 'OtlpSpan');
    await pg.db.prisma.$transaction(insertAll(pg.db, spans));
    expect(await pg.db.prisma.otlpSpan.count()).toBe(3);
    const row: Record<string, unknown> = { ...(tables().find((x) => x.table === 'Run')!.rows[0] as Record<string, unknown>), finalAnswer: 'stored again', steps: 99 };
    await pg.db.prisma.$transaction(insertAll(pg.db, [{ table: 'Run', rows: [row], updateOn: 'id' }]));
    expect(await pg.db.prisma.run.findUniqueOrThrow({ where: { id: row.id as string }, select: { finalAnswer: true, steps: true } })).toEqual({ finalAnswer: 'stored again', steps: 99 });
    expect(await pg.db.prisma.run.count()).toBe(2);
  });
});

const providers = await testProviders();

/** Every row of every table in `t`, read back through Prisma (each column as Prisma returns it), in a stable order. */
async function readBack(db: Database, t: TableRows[]): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const { table, rows } of t) {
    if (rows.length === 0) continue;
    const model = (db.prisma as unknown as Record<string, { findMany(): Promise<object[]> }>)[table[0]!.toLowerCase() + table.slice(1)]!;
    out[table] = (await model.findMany()).map((r) => JSON.stringify(r, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v))).sort();
  }
  return out;
}

/** `db` as a transaction's Database, counting the raw statements sent through Prisma. */
function counted(db: Database, tx: unknown): { txDb: Database; viaPrisma: () => number } {
  let n = 0;
  const prisma = new Proxy(tx as object, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      if ((prop === '$executeRaw' || prop === '$executeRawUnsafe') && typeof value === 'function') return (...args: unknown[]) => (n++, (value as (...a: unknown[]) => unknown).apply(target, args));
      return value;
    },
  }) as Database['prisma'];
  return { txDb: { ...db, prisma }, viaPrisma: () => n };
}

// Issue 36, OTLP ingest: a 1,000-span batch and its 100 runs bound ~2 MB through Prisma, which cost
// more than the database's own work. Inside a transaction the rows go on the connection it holds.
describe.each(providers)('writing tables inside a transaction on $name', (provider) => {
  const test = provider.skipReason ? it.skip : it;
  let viaInsertAll: TestDatabase;
  let held: TestDatabase;
  beforeAll(async () => {
    if (provider.skipReason) return;
    viaInsertAll = await provider.create();
    held = await provider.create();
  });
  afterAll(async () => {
    await viaInsertAll?.drop();
    await held?.drop();
  });

  test('go on the connection the transaction holds, none through Prisma, and are the rows insertAll writes', async () => {
    const t = tables();
    await viaInsertAll.db.prisma.$transaction(insertAll(viaInsertAll.db, t));
    let sent = -1;
    await holdingClient(() =>
      held.db.prisma.$transaction(async (tx) => {
        const { txDb, viaPrisma } = counted(held.db, tx);
        await writeTables(txDb, t);
        sent = viaPrisma();
      }),
    );
    expect(sent).toBe(0);
    const mine = await readBack(held.db, t);
    expect(mine.OtlpSpan).toHaveLength(3);
    expect(mine).toEqual(await readBack(viaInsertAll.db, t));
  });

  test('are part of the transaction: undone with it when it fails', async () => {
    const spans = tables().filter((x) => x.table === 'OtlpSpan' || x.table === 'OtlpTrace').map((x) => ({ ...x, rows: x.rows.map((r) => ({ ...r, tenant: 'undone' })) }));
    await expect(
      holdingClient(() =>
        held.db.prisma.$transaction(async (tx) => {
          await writeTables({ ...held.db, prisma: tx as unknown as Database['prisma'] }, spans);
          throw new Error('the batch fails after its rows');
        }),
      ),
    ).rejects.toThrow('the batch fails after its rows');
    expect(await held.db.prisma.otlpSpan.count({ where: { tenant: 'undone' } })).toBe(0);
    expect(await held.db.prisma.otlpTrace.count({ where: { tenant: 'undone' } })).toBe(0);
  });
});

describe('the same tables on PostgreSQL and SQLite', () => {
  const pg = providers.find((p) => p.name === 'postgres')!;
  (pg.skipReason ? it.skip : it)('read back the same through Prisma (PostgreSQL writes each table as one JSON value)', async () => {
    const t = tables();
    const onPg = await pg.create();
    const onSqlite = await providers.find((p) => p.name === 'sqlite')!.create();
    try {
      await onPg.db.prisma.$transaction(insertAll(onPg.db, t));
      await onSqlite.db.prisma.$transaction(insertAll(onSqlite.db, t));
      expect(await readBack(onPg.db, t)).toEqual(await readBack(onSqlite.db, t));
    } finally {
      await onPg.drop();
      await onSqlite.drop();
    }
  });
});

describe('a batch on PostgreSQL', () => {
  it('is one statement, the shared prune lock taken inside it before any row (one round trip a batch)', () => {
    const fake = { provider: 'postgres', prisma: { $executeRaw: (_strings: unknown, sql: { text: string }) => sql.text } } as unknown as Database;
    const statements = insertAll(fake, tables()) as unknown as string[];
    expect(statements).toHaveLength(1);
    const [text] = statements;
    expect(text).toContain('pg_advisory_xact_lock_shared');
    expect(text).toMatch(/INSERT INTO "Blob" .* WHERE \(SELECT true FROM "prune_lock"\)/s);
    expect(text!.indexOf('"prune_lock" AS')).toBeLessThan(text!.indexOf('INSERT INTO'));
  });
});
