/**
 * Reconciliation against the Stockroom restock ledger, asked by operation key: the in-process
 * environment's ledger, or a durable ledger store (an MCP server is asked through its executor,
 * lib/governance/reconcile.ts operationReconciler).
 */
import type { JsonValue } from '../../harness';
import type { Reconciler } from '../../governance';
import type { StockroomEnvironment } from '../environment';
import type { LedgerStore } from './ledger-store';

/** Asks the environment's ledger whether a restock was created under an operation key. */
export function ledgerReconciler(env: StockroomEnvironment): Reconciler {
  return {
    async lookup(tool, key) {
      if (tool !== 'create_restock_request') return null;
      return (env.ledger.findByOperationKey(key) as unknown as JsonValue) ?? null;
    },
  };
}

/** Asks a durable ledger store (the dashboard's downstream of record). */
export function ledgerStoreReconciler(store: LedgerStore): Reconciler {
  return {
    async lookup(tool, key) {
      if (tool !== 'create_restock_request') return null;
      return ((await store.find(key)) as unknown as JsonValue) ?? null;
    },
  };
}
