/**
 * Reconciliation against the Stockroom restock ledger, asked by operation key: the in-process
 * environment's ledger, a durable ledger store, or the MCP server (its read-only lookup tool).
 */
import type { JsonValue } from '../harness/json';
import type { StockroomEnvironment } from '../stockroom/environment';
import type { OperationLookup } from '../stockroom/ledger/durable-ledger-executor';
import type { LedgerStore } from '../stockroom/ledger/ledger-store';
import type { Reconciler } from './reconcile';

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

/** Asks whatever downstream the executor reaches (local ledger, durable store, MCP server). */
export function operationReconciler(downstream: OperationLookup): Reconciler {
  return { lookup: (tool, key) => downstream.lookupOperation(tool, key) };
}
