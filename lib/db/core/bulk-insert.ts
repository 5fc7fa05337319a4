import 'server-only';
/**
 * Multi-row INSERT statements through Prisma's raw tagged template (portable between SQLite and
 * PostgreSQL: quoted identifiers, bound values). Prisma's createMany costs ~100–400 µs per row in
 * the JS query compiler; one bound multi-row INSERT costs ~20 µs per row, which is what lets a
 * 250-run matrix be stored in well under a second.
 *
 * Each statement is one round trip through Prisma and the driver (~0.35 ms of CPU on PostgreSQL
 * whatever its size), so `insertAll` writes a run's dozen tables on PostgreSQL as one statement of
 * data-modifying CTEs: a worker storing runs all day spends its time on runs, not on round trips.
 * Prisma also compiles and maps every bound value of a raw query, so on both databases a table's rows
 * travel as one JSON value (SQLite: json_each; PostgreSQL: json_populate_recordset, which types each
 * column as the table declares it), and on PostgreSQL `insertAllWhen` puts a store's checks (its job
 * lease, its suite's status) in the same statement, written only when they pass.
 */
import { Prisma as Sql } from '../generated/sqlite/client';
import type { Database } from './client';
import { prepared, sqliteValue } from './sqlite-direct';
import { rawRows } from './pg-direct';

/** Bound values per INSERT: under SQLite's 32,766 and PostgreSQL's 65,535 limits. */
const MAX_PARAMS = 10_000;

/** One table's rows to insert; every row has the same keys, which name the columns. */
export interface TableRows {
  table: string;
  rows: ReadonlyArray<object>;
  /** A duplicate key on this column (or these columns) is a no-op (content-addressed or resent rows). */
  ignoreConflictOn?: string | readonly string[];
  /**
   * PostgreSQL: the write holds BLOB_PRUNE_LOCK shared until commit. Writers share it; a prune
   * (runs-write.ts pruneBlobs) takes it exclusively, so it waits for every write in flight and they
   * wait for it: a row this transaction references cannot be pruned between its conflict check and
   * its reference (observed: RunBlobRef_hash_fkey failures).
   */
  shareExisting?: boolean;
  /**
   * A row whose key (this column) is stored already is updated in place, every other column set to
   * the new value (a run stored again: rows other writers keep under it are not touched, runs-write.ts).
   */
  updateOn?: string;
  /**
   * A row whose key (these columns) is stored already adds its other columns to the stored values
   * (counters, e.g. the hourly rollup, rollup.ts). Rows are written in the order given, so writers
   * that sort their rows by key lock them in one order: no deadlock.
   */
  addOn?: readonly string[];
}

/** The advisory lock pruning content-addressed rows takes exclusively and their writers share. */
export const BLOB_PRUNE_LOCK = 'stockroom:blob-prune';

type Statement = ReturnType<Database['prisma']['$executeRaw']>;

/** A table's ON CONFLICT clause (both providers, both SQLite paths): update in place, add, keep what is there, or none. */
function onConflictOf({ table, ignoreConflictOn, updateOn, addOn }: TableRows, columns: readonly string[]): string {
  const list = (cs: readonly string[]) => cs.map((c) => `"${c}"`).join(', ');
  if (updateOn !== undefined) return ` ON CONFLICT ("${updateOn}") DO UPDATE SET ${columns.filter((c) => c !== updateOn).map((c) => `"${c}" = excluded."${c}"`).join(', ')}`;
  if (addOn !== undefined) return ` ON CONFLICT (${list(addOn)}) DO UPDATE SET ${columns.filter((c) => !addOn.includes(c)).map((c) => `"${c}" = "${table}"."${c}" + excluded."${c}"`).join(', ')}`;
  const conflict = ignoreConflictOn === undefined ? [] : typeof ignoreConflictOn === 'string' ? [ignoreConflictOn] : ignoreConflictOn;
  return conflict.length > 0 ? ` ON CONFLICT (${list(conflict)}) DO NOTHING` : '';
}

/**
 * The INSERTs of one table's rows as SQLite text with `?` placeholders and their bound values, each under
 * MAX_PARAMS bound values (the direct path, sqlite-direct.ts). Built as text, not as Prisma Sql
 * pieces: a batch of 1,000 spans is 14,000 values, and a piece per row was garbage the ingest paid
 * for (issue 36).
 */
function insertSql(t: TableRows): Array<{ sql: string; values: unknown[] }> {
  const first = t.rows[0];
  if (!first) return [];
  const columns = Object.keys(first);
  const head = `INSERT INTO "${t.table}" (${columns.map((c) => `"${c}"`).join(', ')}) VALUES `;
  const tail = onConflictOf(t, columns);
  const row = `(${columns.map(() => '?').join(',')})`;
  const perStatement = Math.max(1, Math.floor(MAX_PARAMS / columns.length));
  const pieces = [];
  for (let i = 0; i < t.rows.length; i += perStatement) {
    const chunk = t.rows.slice(i, i + perStatement);
    const values: unknown[] = [];
    for (const r of chunk) for (const c of columns) values.push(sqliteValue((r as Record<string, unknown>)[c]));
    pieces.push({ sql: `${head}${Array(chunk.length).fill(row).join(',')}${tail}`, values });
  }
  return pieces;
}

/**
 * A value as it goes into the JSON of sqliteJsonInserts: what sqliteValue binds, in JSON (booleans
 * 1/0, dates ISO with +00:00), a bigint as its digits (the INTEGER column's affinity makes it the
 * same integer again: a JSON number would lose digits past 2^53).
 */
function jsonCell(v: unknown): unknown {
  if (v === undefined || v === null) return null;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'bigint') return String(v);
  if (v instanceof Date) return v.toISOString().replace('Z', '+00:00');
  if (v instanceof Uint8Array) throw new TypeError('sqliteJsonInserts: a byte value cannot travel as JSON');
  return v;
}

/**
 * SQLite through Prisma: a table's rows as one statement with one bound value, the rows as a JSON
 * array of arrays that json_each expands. Prisma maps each bound value of a raw query in its query
 * interpreter: 1,000 spans of 14 columns were 14,000 values and ~40 ms of CPU, as one JSON string
 * ~20 ms (issue 36, OTLP ingest). The rows stored are the direct path's (insertSqlite): the same
 * values, converted by the same column affinities (lib/db/bulk-insert.test.ts compares them).
 */
function sqliteJsonInserts(t: TableRows): Sql.Sql[] {
  const { table, rows } = t;
  const first = rows[0];
  if (!first) return [];
  const columns = Object.keys(first);
  // The same conflict clause as the direct path's (insertSql).
  const onConflict = onConflictOf(t, columns);
  // `WHERE true`: without it SQLite would read ON CONFLICT as the join's ON (its documented ambiguity).
  const head = Sql.raw(`INSERT INTO "${table}" (${columns.map((c) => `"${c}"`).join(', ')}) SELECT ${columns.map((_, i) => `"value" ->> ${i}`).join(', ')} FROM json_each(`);
  const tail = Sql.raw(`) WHERE true${onConflict}`);
  const json = JSON.stringify(rows.map((row) => columns.map((c) => jsonCell((row as Record<string, unknown>)[c]))));
  return [Sql.sql`${head}${json}${tail}`];
}

/**
 * The same INSERTs as SQLite text with `?` placeholders and their values as bound (sqliteValue), for a
 * synchronous connection (sqlite-direct.ts): run them as `statement.run(values)`, the array itself
 * (spreading 10,000 values into arguments, and a second array of them, cost every batch).
 */
export function insertSqlite(tables: readonly TableRows[]): Array<{ sql: string; values: unknown[] }> {
  return tables.flatMap(insertSql);
}

/**
 * A value as it goes into the JSON of pgJsonInsert, which json_populate_recordset reads by the
 * column's own type: a bigint as its digits, a date in ISO form (UTC, as Prisma stores it), a float
 * JSON cannot hold (NaN, ±Infinity) by the name PostgreSQL reads it by.
 */
function pgJsonCell(v: unknown): unknown {
  if (v === undefined || v === null) return null;
  if (typeof v === 'bigint') return String(v);
  if (typeof v === 'number' && !Number.isFinite(v)) return String(v);
  if (v instanceof Date) return v.toISOString();
  if (v instanceof Uint8Array) throw new TypeError('pgJsonInsert: a byte value cannot travel as JSON');
  return v;
}

/**
 * PostgreSQL: a table's rows as one INSERT with one bound value, the rows a JSON array of objects
 * that json_populate_recordset types by the table's columns; `gate` (a condition, or empty) decides
 * whether they are written at all.
 */
function pgJsonInsert(t: TableRows, gate: Sql.Sql): Sql.Sql | null {
  const { table, rows } = t;
  const first = rows[0];
  if (!first) return null;
  const columns = Object.keys(first);
  const list = columns.map((c) => `"${c}"`).join(', ');
  const json = JSON.stringify(rows.map((row) => Object.fromEntries(columns.map((c) => [c, pgJsonCell((row as Record<string, unknown>)[c])]))));
  const head = Sql.raw(`INSERT INTO "${table}" (${list}) SELECT ${list} FROM json_populate_recordset(NULL::"${table}", `);
  return Sql.sql`${head}${json}::json)${gate}${Sql.raw(onConflictOf(t, columns))}`;
}

/** The INSERTs of `tables` chained as data-modifying CTEs after `ctes`, each written when `gate` holds. */
function pgChain(tables: readonly TableRows[], ctes: Sql.Sql[], gate: Sql.Sql, last: Sql.Sql | null): Sql.Sql | null {
  const inserts = tables.map((t) => pgJsonInsert(t, gate)).filter((x): x is Sql.Sql => x !== null);
  const tail = last ?? inserts.pop();
  if (!tail) return null;
  const all = [...ctes, ...inserts.map((sql, i) => Sql.sql`${Sql.raw(`"w${i}"`)} AS (${sql})`)];
  return all.length === 0 ? tail : Sql.sql`WITH ${Sql.join(all)} ${tail}`;
}

/**
 * Statements inserting several tables' rows, to be run in order inside one transaction; `tables`
 * come in foreign-key order. PostgreSQL: every INSERT chained as data-modifying CTEs into one
 * statement (each table one bound value); foreign keys are checked at the end of the statement, so a
 * parent and its children share it; no two INSERTs of a statement touch the same row (a batch's blobs
 * are distinct by hash, every other row is new). SQLite (no INSERT inside WITH): one statement per
 * table, its rows in one JSON value (sqliteJsonInserts).
 */
export function insertAll(db: Database, tables: readonly TableRows[]): Statement[] {
  // SQLite has one writer at a time: nothing can be pruned between this write's statements.
  if (db.provider !== 'postgres') return tables.flatMap(sqliteJsonInserts).map((sql) => db.prisma.$executeRaw`${sql}`);
  return pgStatements(tables).map((sql) => db.prisma.$executeRaw`${sql}`);
}

/** The shared prune lock as a CTE; an INSERT gated on it (pruneGate) takes it before its first row. */
const pruneLock = () => Sql.sql`"prune_lock" AS (SELECT count(*) FROM (SELECT pg_advisory_xact_lock_shared(hashtext(${BLOB_PRUNE_LOCK}))) AS l)`;

/**
 * PostgreSQL: every table's INSERT in one statement, each gated on the shared prune lock when the
 * tables need it (one round trip a batch: the lock was a statement of its own, issue 36).
 */
function pgStatements(tables: readonly TableRows[]): Sql.Sql[] {
  const lock = tables.some((t) => t.shareExisting && t.rows.length > 0);
  const chain = lock ? pgChain(tables, [pruneLock()], Sql.sql` WHERE (SELECT true FROM "prune_lock")`, null) : pgChain(tables, [], Sql.empty, null);
  return chain ? [chain] : [];
}

/**
 * Writes the tables from inside a Prisma transaction (`db` is that transaction's Database) on the
 * connection it holds, when that can be reached: SQLite's one connection, synchronously, with the
 * direct path's statements (insertSqlite); PostgreSQL's pool client, when the transaction was begun
 * inside holdingClient (pg-adapter.ts), with the one statement insertAll sends. Through Prisma each bound
 * byte costs: a batch of 1,000 spans and their 100 runs binds ~2 MB (issue 36, OTLP ingest). Else it
 * sends insertAll's statements through Prisma.
 */
export async function writeTables(db: Database, tables: readonly TableRows[]): Promise<void> {
  const sqlite = db.prismaConnection?.();
  if (sqlite) {
    for (const st of insertSqlite(tables)) prepared(sqlite, st.sql).run(st.values);
    return;
  }
  const pg = db.heldClient?.();
  if (pg) {
    for (const sql of pgStatements(tables)) await pg.query(sql.text, sql.values);
    return;
  }
  for (const statement of insertAll(db, tables)) await statement;
}

/**
 * PostgreSQL: insertAll's rows in one statement that first runs `guard` (a query of at most one row
 * with a boolean column `go`, which may lock what it reads FOR SHARE until the statement commits) and
 * writes only when it returns a row whose `go` is true; returns the guard's rows. One round trip where
 * a transaction of checks and inserts took six (BEGIN, each check, the prune lock, the insert, COMMIT),
 * sent on the pool (pg-direct.ts): never inside a caller's transaction.
 * The prune lock (shareExisting) is taken with the guard, before any row is written.
 */
export async function insertAllWhen<T extends { go: boolean }>(db: Database, tables: readonly TableRows[], guard: Sql.Sql): Promise<T[]> {
  if (db.provider !== 'postgres') throw new Error('insertAllWhen is PostgreSQL only');
  const lock = tables.some((t) => t.shareExisting && t.rows.length > 0) ? pruneLock() : Sql.sql`"prune_lock" AS (SELECT 1)`;
  // Each INSERT reads the gate before its first row: the guard's locks and the prune lock come first.
  const gate = Sql.sql` WHERE (SELECT g."go" FROM "guard" g CROSS JOIN "prune_lock")`;
  const chain = pgChain(tables, [lock, Sql.sql`"guard" AS (${guard})`], gate, Sql.sql`SELECT * FROM "guard"`)!;
  // On the pool, not through Prisma: the rows' JSON is most of what a store binds (pg-direct.ts).
  return rawRows<T>(db, chain);
}
