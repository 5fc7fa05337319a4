/**
 * Prisma's better-sqlite3 adapter, with one repair: a transaction whose COMMIT fails (SQLITE_FULL
 * on a full disk, an I/O error) is rolled back and its lock let go. The adapter (6.19) holds a
 * mutex for each transaction that only its commit() or rollback() releases, and Prisma calls neither
 * when the COMMIT statement itself fails, so every later query of the process waited forever and the
 * server never recovered when space returned (issue 32, found by lib/actions/sqlite-faults.test.ts).
 */
import { PrismaBetterSQLite3 } from '@prisma/adapter-better-sqlite3';
import type { SqliteConnection } from './sqlite-direct';

interface SqlQuery {
  sql: string;
}
interface Transaction {
  client?: { inTransaction?: boolean; exec(sql: string): unknown };
  executeRaw(q: SqlQuery): Promise<number>;
  queryRaw(q: SqlQuery): Promise<unknown>;
  rollback(): Promise<void>;
}
interface Adapter {
  startTransaction(level?: unknown): Promise<Transaction>;
}

const IS_COMMIT = /^\s*COMMIT\b/i;

/** Rolls back what is left of a transaction whose COMMIT failed and releases the adapter's lock. */
async function abandon(tx: Transaction): Promise<void> {
  try {
    if (tx.client?.inTransaction) tx.client.exec('ROLLBACK');
  } catch {
    // SQLite may have rolled it back itself; the lock below is what matters.
  }
  await tx.rollback();
}

function repairCommit(tx: Transaction): Transaction {
  for (const method of ['executeRaw', 'queryRaw'] as const) {
    const original = tx[method].bind(tx) as (q: SqlQuery) => Promise<never>;
    tx[method] = async (q: SqlQuery) => {
      try {
        return await original(q);
      } catch (err) {
        if (IS_COMMIT.test(q.sql)) await abandon(tx);
        throw err;
      }
    };
  }
  return tx;
}

/**
 * The adapter factory for an SQLite file. `onConnect` is handed the adapter's one better-sqlite3
 * connection (the adapter's `client`): code holding a Prisma transaction may write on it directly,
 * inside that transaction (client.ts `prismaConnection`).
 */
export function sqliteAdapter(file: string, onConnect?: (connection: SqliteConnection) => void): PrismaBetterSQLite3 {
  const factory = new PrismaBetterSQLite3({ url: file });
  const connect = factory.connect.bind(factory);
  factory.connect = async () => {
    const adapter = await connect();
    const client = (adapter as unknown as { client?: SqliteConnection }).client;
    if (client) onConnect?.(client);
    const start = (adapter as unknown as Adapter).startTransaction.bind(adapter);
    (adapter as unknown as Adapter).startTransaction = async (level) => repairCommit(await start(level));
    return adapter;
  };
  return factory;
}
