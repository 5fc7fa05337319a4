/**
 * A run's money: its cost from the cost meter (live models), or 0 billed for the fake model, and the
 * usd-budget check before each model call (`--usd-budget`; only with a meter that prices the model).
 */
import type { CostMeter } from '../cost';
import type { HarnessConfig } from '../config';
import { usdBudgetGuard } from '../guards/usd-budget';
import { CONTINUE, type GuardVerdict } from '../guards/verdict';
import type { RunResult, Usage } from '../types';
import { budgetTokens } from './usage';

export const MOCK_COST_NOTE = 'mock mode: no model calls were billed';

/** The reported usage a meter prices. */
export function usageTokens(usage: Usage) {
  return { inputTokens: usage.inputTokens, outputTokens: usage.outputTokens, cachedTokens: usage.cachedTokens ?? 0, cacheWriteTokens: usage.cacheWriteTokens ?? 0 };
}

/**
 * The run's cost estimate as stored with it. With calls that reported no usage, `usd` prices the
 * reported ones only and says how many were not (a lower bound, shown "≥ $…, N unreported").
 */
export function costOf(meter: CostMeter | undefined, mode: HarnessConfig['mode'], usage: Usage): RunResult['costEstimate'] {
  const unreported = usage.unreportedCalls ?? 0;
  const mark = unreported > 0 ? { unreportedCalls: unreported } : {};
  if (!meter) return mode === 'mock' ? { usd: 0, note: MOCK_COST_NOTE, ...mark } : { usd: null, note: 'cost not estimated', known: false, ...mark };
  const usd = meter.usd(usageTokens(usage));
  return usd === null ? { usd: null, note: meter.note, known: false, ...mark } : { usd, note: meter.note, ...mark };
}

/**
 * The usd budget before the next call: what was spent so far plus the most the next call may cost
 * (its estimated input and the full output reserve). Continues when there is no budget or no meter.
 */
export function usdBudgetCheck(meter: CostMeter | undefined, config: Pick<HarnessConfig, 'usdBudget' | 'maxTokens'>, usage: Usage, nextInputTokens: number): GuardVerdict {
  if (config.usdBudget === null || !meter) return CONTINUE;
  // Unreported calls count at their local estimate (pre-call stops the run before this when there is none).
  const counted = budgetTokens(usage);
  const spent =
    meter.usd(
      counted
        ? { inputTokens: counted.input, outputTokens: counted.output, cachedTokens: counted.cachedTokens, cacheWriteTokens: counted.cacheWriteTokens }
        : usageTokens(usage),
    ) ?? 0;
  const next = meter.usd({ inputTokens: nextInputTokens, outputTokens: config.maxTokens, cachedTokens: 0 }) ?? 0;
  return usdBudgetGuard(spent, next, config.usdBudget);
}
