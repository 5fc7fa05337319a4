import 'server-only';
/**
 * The downstream the dashboard's governed runs write to: their restock ledger is kept in the
 * database by operation key (lib/db/governance/restock-ledger-store.ts), so reconciliation asks the same
 * system of record whichever server process, restart or transport the write went through.
 */
import { getDb } from '../db/core';
import { PrismaLedgerStore } from '../db/governance';
import type { ToolExecutor } from '../harness';
import type { Reconciler } from '../governance';
import { ledgerStoreReconciler } from '../stockroom';
import { DurableLedgerExecutor } from '../stockroom';

/**
 * The run's tools with every restock kept in (and answered from) the durable ledger, each new record
 * named in its tenant's sequence.
 */
export function withDurableLedger(executor: ToolExecutor, runId: string, tenant: string): DurableLedgerExecutor {
  return new DurableLedgerExecutor(executor, new PrismaLedgerStore(getDb().prisma, tenant), runId);
}

/** A reconciler for a run's writes: the durable ledger, after any restart. */
export function reconcilerFor(): Reconciler {
  return ledgerStoreReconciler(new PrismaLedgerStore(getDb().prisma));
}
