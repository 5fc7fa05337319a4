import 'server-only';
/**
 * A second, synchronous SQLite connection to the same file, for the one hot write of the embedded
 * default: storing a suite case (a dozen small INSERTs). Through Prisma each statement costs
 * ~0.3 ms of the server's only thread (the query compiler, the interactive transaction's round
 * trips); here the whole store is one better-sqlite3 transaction of cached prepared statements.
 * The statements are the same bound SQL (bulk-insert.ts builds them) and values are bound the way
 * Prisma's better-sqlite3 adapter binds them, so the stored rows are the same.
 *
 * The transaction is synchronous, so nothing else in this process runs inside it; it takes the
 * write lock at BEGIN IMMEDIATE and never waits for it on the thread: if the lock is held (a
 * Prisma transaction of this process between two awaits, or another process), it gives up at
 * once and is retried after a short sleep, up to WRITE_LOCK_WAIT_MS.
 */
import { createRequire } from 'node:module';

/** The part of better-sqlite3's API used here (the package ships no types). */
export interface SqliteStatement {
  /** Anonymous parameters as arguments or as one array of them. */
  run(...values: unknown[]): { changes: number };
  get(...values: unknown[]): unknown;
}
export interface SqliteConnection {
  prepare(sql: string): SqliteStatement;
  pragma(source: string): unknown;
  /** Called inside another transaction, it is a savepoint of it. */
  transaction<T>(fn: () => T): { (): T; immediate(): T };
  close(): void;
}

/** How long a store waits for SQLite's write lock in total (the app's busy timeout). */
export const WRITE_LOCK_WAIT_MS = 5_000;

const require = createRequire(import.meta.url);

export function openSqliteDirect(file: string): SqliteConnection {
  const Ctor = require('better-sqlite3') as new (file: string) => SqliteConnection;
  const conn = new Ctor(file);
  conn.pragma('busy_timeout = 0');
  return conn;
}

/** A value bound as Prisma's better-sqlite3 adapter binds it (booleans 1/0, dates ISO with +00:00). */
export function sqliteValue(v: unknown): unknown {
  if (v === undefined || v === null) return null;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (v instanceof Date) return v.toISOString().replace('Z', '+00:00');
  if (v instanceof Uint8Array && !Buffer.isBuffer(v)) return Buffer.from(v);
  return v;
}

const MAX_CACHED = 256;
const statements = new WeakMap<SqliteConnection, Map<string, SqliteStatement>>();

/** A prepared statement, cached per connection by its SQL text. */
export function prepared(conn: SqliteConnection, sql: string): SqliteStatement {
  let cache = statements.get(conn);
  if (!cache) statements.set(conn, (cache = new Map()));
  let stmt = cache.get(sql);
  if (!stmt) {
    if (cache.size >= MAX_CACHED) cache.clear();
    stmt = conn.prepare(sql);
    cache.set(sql, stmt);
  }
  return stmt;
}

const isBusy = (err: unknown) => typeof (err as { code?: unknown })?.code === 'string' && /^SQLITE_BUSY/.test((err as { code: string }).code);

/** Runs `fn` as one IMMEDIATE transaction, retrying (asynchronously) while the write lock is held elsewhere. */
export async function writeTransaction<T>(conn: SqliteConnection, fn: () => T): Promise<T> {
  const deadline = Date.now() + WRITE_LOCK_WAIT_MS;
  const tx = conn.transaction(fn);
  for (let wait = 1; ; wait = Math.min(wait * 2, 50)) {
    try {
      return tx.immediate();
    } catch (err) {
      if (!isBusy(err) || Date.now() >= deadline) throw err;
      await new Promise((r) => setTimeout(r, wait));
    }
  }
}
