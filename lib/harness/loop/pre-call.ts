/**
 * The checks before every model call, in the order of ARCHITECTURE.md: wall clock, max steps,
 * compaction (when the context is over its threshold), token budget, usd budget. The first guard
 * that trips stops the run; compaction is recorded as an event and changes the messages.
 */
import { maxStepsGuard, tokenBudgetGuard, usageUnknownStop, wallClockGuard } from '../guards/pre-call';
import type { GuardVerdict } from '../guards/verdict';
import { compactMessages } from './compaction';
import { contextEstimate, type Driver } from './options';
import { usdBudgetCheck } from './run-cost';
import { budgetTokens } from './usage';
import type { RunState } from './run-state';

/** A guard's stop, or the next call's estimated input tokens (after any compaction). */
export type PreCallOutcome = { stop: Extract<GuardVerdict, { stop: true }> } | { stop: null; contextTokens: number };

export function preCallChecks(d: Driver, run: RunState): PreCallOutcome {
  const { config, floatKeys, costMeter } = d.options;
  const early = wallClockGuard(d.clock.now() - d.started, config.wallClockTimeoutS);
  const steps = early.stop ? early : maxStepsGuard(run.usage.modelCalls, config.maxSteps);
  if (steps.stop) return { stop: steps };

  let ctx = contextEstimate(d, run);
  if (ctx > config.compactionTokenThreshold) {
    const compacted = compactMessages(run.messages, config.compactionKeepTurns, floatKeys);
    if (compacted.summarised > 0) {
      run.messages = compacted.messages;
      const after = contextEstimate(d, run);
      run.trajectory.push({ kind: 'compaction', step: run.step, tokensBefore: ctx, tokensAfter: after, resultsSummarised: compacted.summarised });
      ctx = after;
    }
  }
  const counted = budgetTokens(run.usage);
  if (counted === null) return { stop: usageUnknownStop(run.usage.unreportedCalls ?? 0) };
  const budget = tokenBudgetGuard(counted.input + counted.output, ctx, config.maxTokens, config.tokenBudget);
  if (budget.stop) return { stop: budget };
  const usd = usdBudgetCheck(costMeter, config, run.usage, ctx);
  if (usd.stop) return { stop: usd };
  return { stop: null, contextTokens: ctx };
}
