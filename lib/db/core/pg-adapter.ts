import 'server-only';
/**
 * Prisma's PostgreSQL adapter, with a cut connection given back to the pool. Prisma's transaction
 * manager (@prisma/client 6.19) ends a transaction by sending ROLLBACK (or COMMIT) and only then
 * releases its pool client; when that statement fails because PostgreSQL cut the connection (a
 * restart, a failover, pg_terminate_backend) the release is never reached and the dead client stays
 * checked out for good. Each such cut took one of the pool's PG_POOL_SIZE connections: after that many
 * every query waited forever, and closing the pool hung (observed in lib/db/retention-fault-pg.test.ts).
 * Here a failed ending statement releases the client with its error, so node-postgres discards it and
 * the next transaction opens a fresh connection.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { PrismaPg } from '@prisma/adapter-pg';
import type { PoolClient } from 'pg';

/** Where a transaction begun inside holdingClient puts its pool client. */
const holders = new AsyncLocalStorage<{ client: PoolClient | null }>();

/**
 * Runs `begin` (which begins one Prisma interactive transaction) so that, inside that transaction,
 * heldClient() is the pool client it holds: statements sent on it directly are part of it, without
 * Prisma's cost per bound byte (bulk-insert.ts writeTables).
 */
export function holdingClient<T>(begin: () => Promise<T>): Promise<T> {
  return holders.run({ client: null }, begin);
}

/** The pool client of the transaction begun inside holdingClient, when the caller is inside it; else null. */
export function heldClient(): PoolClient | null {
  return holders.getStore()?.client ?? null;
}

type Adapter = Awaited<ReturnType<PrismaPg['connect']>>;
type Transaction = Awaited<ReturnType<Adapter['startTransaction']>>;
/** What PrismaPg's transaction holds (its pool client and the cleanup of its error listener); not in its types. */
type HeldTransaction = Transaction & { client?: PoolClient; cleanup?: () => void };

const ENDINGS = new Set(['ROLLBACK', 'COMMIT']);

function releaseWhenEndingFails(tx: Transaction): Transaction {
  const held = tx as HeldTransaction;
  const executeRaw = tx.executeRaw.bind(tx);
  held.executeRaw = async (query) => {
    try {
      return await executeRaw(query);
    } catch (err) {
      // Prisma will not release the client after this (it releases only once the statement succeeded).
      if (ENDINGS.has(query.sql) && held.client) {
        held.cleanup?.();
        held.client.release(err instanceof Error ? err : new Error(String(err)));
      }
      throw err;
    }
  };
  return tx;
}

/** PrismaPg whose transactions give back a connection PostgreSQL cut (see above). */
export class ReleasingPrismaPg extends PrismaPg {
  override async connect(): Promise<Adapter> {
    const adapter = await super.connect();
    const start = adapter.startTransaction.bind(adapter);
    adapter.startTransaction = async (isolationLevel) => {
      const tx = releaseWhenEndingFails(await start(isolationLevel));
      const holder = holders.getStore();
      if (holder && holder.client === null) holder.client = (tx as HeldTransaction).client ?? null;
      return tx;
    };
    return adapter;
  }
}
