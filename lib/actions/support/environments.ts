import 'server-only';
/**
 * The in-process Stockroom environments of recent governed runs (local transport), kept so that
 * reconciliation can ask the ledger that actually received a write. The environment is the
 * downstream system here: when it is gone (evicted, or the server restarted), so is anything
 * written to it, and reconciliation truthfully finds no record.
 */
import type { Reconciler } from '../../governance/reconcile';
import { ledgerReconciler } from '../../governance/stockroom-reconciler';
import type { StockroomEnvironment } from '../../stockroom/environment';

/** Environments kept for reconciliation (oldest evicted first). */
const MAX_KEPT = 100;

const store = globalThis as unknown as { __stockroomGovernedEnvs?: Map<string, StockroomEnvironment> };
const kept = (store.__stockroomGovernedEnvs ??= new Map());

/** Remembers the environment a governed run's segment wrote to. */
export function keepEnvironment(runId: string, env: StockroomEnvironment): void {
  kept.delete(runId);
  kept.set(runId, env);
  while (kept.size > MAX_KEPT) kept.delete(kept.keys().next().value!);
}

/** A reconciler for a run's writes: its environment's ledger, or "no record" when it is gone. */
export function reconcilerFor(runId: string): Reconciler {
  const env = kept.get(runId);
  return env ? ledgerReconciler(env) : { lookup: async () => null };
}
