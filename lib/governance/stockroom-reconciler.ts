/** Reconciliation against the Stockroom restock ledger, which records each request's operation key. */
import type { JsonValue } from '../harness/json';
import type { StockroomEnvironment } from '../stockroom/environment';
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
