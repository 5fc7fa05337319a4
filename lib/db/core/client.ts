import 'server-only';
/**
 * The Prisma client, picked at run time from DATABASE_URL: the SQLite client over better-sqlite3 or
 * the PostgreSQL client over pg, so one build serves both. Both generated clients come from schemas
 * with identical models, so the data layer is typed against the SQLite one and uses either.
 */
import { PrismaClient as PostgresClient } from '../generated/postgres/client';
import { PrismaClient as SqliteClient } from '../generated/sqlite/client';
import { resolveDatabaseUrl, type DatabaseTarget, type Provider } from './database-url';
import { sqliteAdapter } from './sqlite-adapter';
import { openSqliteDirect, type SqliteConnection } from './sqlite-direct';
import { heldClient, ReleasingPrismaPg } from './pg-adapter';
import pg, { type PoolClient } from 'pg';
import { guardUnavailable } from './unavailable-guard';

/** Connections a process's PostgreSQL pool opens at most (node-postgres' default, stated here). */
export const PG_POOL_SIZE = 10;

/** The Prisma client type the data layer is written against (models are identical across providers). */
export type Prisma = SqliteClient;

/** A connected database: its Prisma client and which provider it speaks. */
export interface Database {
  readonly prisma: Prisma;
  readonly provider: Provider;
  /** Releases the connection (tests, CLI, bench; the app's singleton lives for the process). */
  close(): Promise<void>;
  /** SQLite: a synchronous connection to the same file for the suite-case store (sqlite-direct.ts), opened on first use. */
  readonly direct?: () => SqliteConnection;
  /**
   * SQLite: Prisma's own connection (null until Prisma has connected). A Prisma transaction holds it
   * for its whole length, so inside one, statements run on it synchronously are part of that
   * transaction, without Prisma's cost per bound byte (otlp-store.ts writes a batch's rows so).
   */
  readonly prismaConnection?: () => SqliteConnection | null;
  /** PostgreSQL: the pool client of the transaction the caller is inside, when it was begun inside holdingClient (pg-adapter.ts); else null. */
  readonly heldClient?: () => PoolClient | null;
  /**
   * PostgreSQL: the pool Prisma's adapter draws its connections from. A statement sent on it
   * (pg-direct.ts) skips Prisma's compiling and mapping of every bound value, ~0.4 ms of CPU a
   * statement and more per bound byte: what a worker's per-run statements use. Outside any
   * transaction: never used for a statement that must be part of one.
   */
  readonly pool?: pg.Pool;
}

/**
 * Opens a database for a URL (or DATABASE_URL). The schema must already be migrated
 * (scripts/db-migrate.mjs). Tests, the CLI and the bench use this; the app uses `getDb()`.
 */
export function openDatabase(url: string | undefined = process.env.DATABASE_URL): Database {
  const target: DatabaseTarget = resolveDatabaseUrl(url);
  if (target.provider === 'sqlite') {
    // Every client's failures are classified: an unavailable database throws DatabaseUnavailableError.
    let own: SqliteConnection | null = null;
    const prisma = guardUnavailable(new SqliteClient({ adapter: sqliteAdapter(target.file, (c) => (own = c)) }));
    let direct: SqliteConnection | undefined;
    return {
      prisma,
      provider: 'sqlite',
      direct: () => (direct ??= openSqliteDirect(target.file)),
      prismaConnection: () => own,
      close: async () => {
        direct?.close();
        direct = undefined;
        await prisma.$disconnect();
      },
    };
  }
  const pool = new pg.Pool({ connectionString: target.url, max: PG_POOL_SIZE });
  // An idle connection PostgreSQL cut (a restart, a failover) is discarded by node-postgres and the
  // next query opens another; unheard, its error would end the process (Prisma listens only once connected).
  pool.on('error', () => undefined);
  const client = guardUnavailable(new PostgresClient({ adapter: new ReleasingPrismaPg(pool) }));
  // Same models, same generated API; only the provider-specific query options differ (see runs-list).
  const prisma = client as unknown as Prisma;
  return {
    prisma,
    provider: 'postgres',
    close: async () => {
      await client.$disconnect();
      if (!pool.ending) await pool.end();
    },
    heldClient,
    pool,
  };
}

const cache = globalThis as unknown as { __stockroomDb?: Database };

/**
 * The process-wide database. Cached on globalThis so Next's dev-mode module reloading does not open
 * a new connection pool on every edit.
 */
export function getDb(): Database {
  cache.__stockroomDb ??= openDatabase();
  return cache.__stockroomDb;
}

/**
 * Closes the process-wide database and forgets it, so the next getDb() opens DATABASE_URL afresh:
 * for a process that moves between databases (bench sections, each on its own file).
 */
export async function closeDb(): Promise<void> {
  const db = cache.__stockroomDb;
  cache.__stockroomDb = undefined;
  await db?.close();
}
