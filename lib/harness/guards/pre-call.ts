/**
 * Guards consulted before every model call, in this order: wall clock, max steps, (compaction),
 * token budget (SPEC.md §11.4). Each is a pure function of the run's numbers.
 */
import { CONTINUE, stop, type GuardVerdict } from './verdict';

/** Stops when the run has been going longer than its wall-clock limit. */
export function wallClockGuard(elapsedMs: number, timeoutS: number): GuardVerdict {
  const elapsedS = elapsedMs / 1000;
  if (elapsedS <= timeoutS) return CONTINUE;
  return stop('wall_clock', 'TIMEOUT', `run exceeded the wall-clock limit of ${timeoutS.toFixed(0)}s (${elapsedS.toFixed(1)}s)`);
}

/** Counts model calls, not tool calls: the call that would exceed the limit is never made. */
export function maxStepsGuard(modelCalls: number, maxSteps: number): GuardVerdict {
  if (modelCalls < maxSteps) return CONTINUE;
  return stop('max_steps', 'MAX_STEPS', `reached the per-run step limit of ${maxSteps} model calls`);
}

/**
 * The budget is a ceiling: it stops when tokens used so far, plus the next call's estimated input,
 * plus the output that call may produce, would exceed it.
 */
export function tokenBudgetGuard(used: number, nextInputEstimate: number, reserveOutput: number, budget: number): GuardVerdict {
  if (used >= budget) return stop('token_budget', 'TOKEN_BUDGET', `used ${used} tokens against a budget of ${budget}`);
  if (used + nextInputEstimate + reserveOutput > budget) {
    return stop(
      'token_budget',
      'TOKEN_BUDGET',
      `next model call (~${nextInputEstimate} input tokens + up to ${reserveOutput} output) would exceed the budget of ${budget} (used ${used})`,
    );
  }
  return CONTINUE;
}

/**
 * Fails closed: a provider call reported no usage and no local count could be made, so no budget
 * can be kept. The run stops before the next call rather than spend blind.
 */
export function usageUnknownStop(unreportedCalls: number): Extract<GuardVerdict, { stop: true }> {
  const calls = unreportedCalls === 1 ? '1 model call' : `${unreportedCalls} model calls`;
  return {
    stop: true,
    guard: 'usage_unknown',
    reason: 'USAGE_UNKNOWN',
    detail: `${calls} reported no usage and no local token count could be made, so the token and cost budgets cannot be kept`,
  };
}
