import 'server-only';
/**
 * Raw statements on PostgreSQL's pool itself (Database.pool, the one Prisma's adapter draws from),
 * not through Prisma: Prisma compiles and maps every bound value of a raw query, ~0.4 ms of CPU a
 * statement and more per bound byte (a run's store binds tens of kilobytes), where node-postgres
 * sends the text and the values as they are. A worker makes a few such statements for every run it
 * stores (issue 36: the worker's CPU per stored run). Not for a statement that must be part of a
 * Prisma transaction: the pool hands out a connection of its own.
 */
import type { Prisma as Sql } from '../generated/sqlite/client';
import type { Database } from './client';
import { rethrowClassified } from './unavailable-guard';

/**
 * The rows of a raw statement: on the pool where the database has one (PostgreSQL), else through
 * Prisma's $queryRaw. A failure because the database is unavailable throws DatabaseUnavailableError,
 * as through Prisma (unavailable-guard.ts).
 */
export async function rawRows<T>(db: Database, sql: Sql.Sql): Promise<T[]> {
  if (!db.pool) return db.prisma.$queryRaw<T[]>`${sql}`;
  try {
    return (await db.pool.query<T & object>(sql.text, sql.values)).rows;
  } catch (err) {
    rethrowClassified(err);
  }
}
