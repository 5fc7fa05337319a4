/**
 * The cost budget (`--usd-budget`): like the token budget, a ceiling checked before each model call.
 * It stops when the money spent so far, plus the most the next call may cost (its estimated input
 * and the full output reserve), would exceed the budget.
 */
import { CONTINUE, stop, type GuardVerdict } from './verdict';

const usd = (x: number) => `$${x.toFixed(6)}`;

export function usdBudgetGuard(spentUsd: number, nextCallUsd: number, budgetUsd: number): GuardVerdict {
  if (spentUsd >= budgetUsd) return stop('usd_budget', 'COST_BUDGET', `spent ${usd(spentUsd)} against a budget of ${usd(budgetUsd)}`);
  if (spentUsd + nextCallUsd > budgetUsd) {
    return stop(
      'usd_budget',
      'COST_BUDGET',
      `the next model call (up to ${usd(nextCallUsd)}) would exceed the budget of ${usd(budgetUsd)} (spent ${usd(spentUsd)})`,
    );
  }
  return CONTINUE;
}
