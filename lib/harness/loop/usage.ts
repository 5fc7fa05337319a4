/**
 * A run's usage bookkeeping: each provider call adds what it reported (null: not reported), under
 * the purpose that caused it. Totals hold reported tokens only; an unreported call is counted as
 * such and its local estimate, when one was made, is kept apart for the budgets.
 */
import { estimateUsage, type SentText, type TokenEstimator } from '../token-estimator';
import type { ModelResponse, PurposeUsage, Usage, UsageEstimate, UsagePurpose } from '../types';

/** One call's usage as the provider reported it. */
export interface CallUsage {
  inputTokens: number | null;
  outputTokens: number | null;
  cachedTokens?: number;
  cacheWriteTokens?: number;
}

export const emptyUsage = (): Usage => ({ modelCalls: 0, inputTokens: 0, outputTokens: 0, totalTokens: 0, perCall: [] });

/** Whether a call reported its usage (both counts). */
export const reported = (u: Pick<CallUsage, 'inputTokens' | 'outputTokens'>): boolean => u.inputTokens !== null && u.outputTokens !== null;

/**
 * Adds one provider call to `usage` (mutated). `turn` true: one of the agent's model turns (counted
 * in modelCalls and perCall); false: a call that left no turn (a guardrail judge, an unusable answer).
 */
export function addCallUsage(usage: Usage, purpose: UsagePurpose, call: CallUsage, turn: boolean, estimate?: UsageEstimate | null): void {
  const ok = reported(call);
  usage.inputTokens += call.inputTokens ?? 0;
  usage.outputTokens += call.outputTokens ?? 0;
  usage.totalTokens = usage.inputTokens + usage.outputTokens;
  if (call.cachedTokens !== undefined) usage.cachedTokens = (usage.cachedTokens ?? 0) + call.cachedTokens;
  if (call.cacheWriteTokens) usage.cacheWriteTokens = (usage.cacheWriteTokens ?? 0) + call.cacheWriteTokens;
  if (!ok) usage.unreportedCalls = (usage.unreportedCalls ?? 0) + 1;
  if (!ok && estimate) {
    const before = usage.estimatedTokens;
    usage.estimatedTokens = {
      inputTokens: (before?.inputTokens ?? 0) + estimate.inputTokens,
      outputTokens: (before?.outputTokens ?? 0) + estimate.outputTokens,
      by: estimate.by,
      calls: (before?.calls ?? 0) + 1,
    };
  }
  if (usage.byPurpose || purpose !== 'agent') {
    // Kept only once a call of another purpose arrives (runs of the agent alone keep their shape);
    // everything before that was the agent's.
    const byPurpose = usage.byPurpose ?? { agent: agentShare(usage, call, ok) };
    const share: PurposeUsage = byPurpose[purpose] ?? { calls: 0, inputTokens: 0, outputTokens: 0, unreportedCalls: 0 };
    byPurpose[purpose] = {
      calls: share.calls + 1,
      inputTokens: share.inputTokens + (call.inputTokens ?? 0),
      outputTokens: share.outputTokens + (call.outputTokens ?? 0),
      unreportedCalls: share.unreportedCalls + (ok ? 0 : 1),
    };
    usage.byPurpose = byPurpose;
  }
  if (!turn) return;
  usage.modelCalls += 1;
  const entry: Usage['perCall'][number] = { inputTokens: call.inputTokens, outputTokens: call.outputTokens };
  if (call.cachedTokens !== undefined) entry.cachedTokens = call.cachedTokens;
  if (call.cacheWriteTokens) entry.cacheWriteTokens = call.cacheWriteTokens;
  usage.perCall.push(entry);
}

/** The agent's share of `usage` before `call` (of another purpose) was added to its totals. */
function agentShare(usage: Usage, call: CallUsage, ok: boolean): PurposeUsage {
  return {
    calls: usage.modelCalls,
    inputTokens: usage.inputTokens - (call.inputTokens ?? 0),
    outputTokens: usage.outputTokens - (call.outputTokens ?? 0),
    unreportedCalls: (usage.unreportedCalls ?? 0) - (ok ? 0 : 1),
  };
}

/**
 * The tokens a budget counts: reported plus the estimate of unreported calls; null when some call
 * went unreported and has no estimate (a budget then cannot be kept: it fails closed).
 */
export function budgetTokens(usage: Usage): { input: number; output: number; cachedTokens: number; cacheWriteTokens: number } | null {
  const unreported = usage.unreportedCalls ?? 0;
  const est = usage.estimatedTokens;
  if (unreported > (est?.calls ?? 0)) return null;
  return {
    input: usage.inputTokens + (est?.inputTokens ?? 0),
    output: usage.outputTokens + (est?.outputTokens ?? 0),
    cachedTokens: usage.cachedTokens ?? 0,
    cacheWriteTokens: usage.cacheWriteTokens ?? 0,
  };
}

/** A local count of an unreported call's usage; null without an estimator or when it cannot count. */
export function estimateFor(estimator: TokenEstimator | undefined, sent: SentText, response: Pick<ModelResponse, 'text' | 'toolCalls'>): UsageEstimate | null {
  return estimator ? estimateUsage(estimator, sent, response) : null;
}
