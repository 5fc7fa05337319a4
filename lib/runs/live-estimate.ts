/**
 * What a live matrix (or eval) will cost and roughly how long it takes, before it runs: runs ×
 * epochs × the mean tokens of a run × the model's price, and the provider's per-minute limits as a
 * floor on the time. The token means come from a measured source (named in the estimate); an
 * unknown price or an unlimited provider is said, not guessed.
 */
import { usdAt, type Price } from '../models';

export interface LiveEstimateInput {
  settings: number;
  cases: number;
  epochs: number;
  /** Per run: mean input tokens, output tokens and model calls, and where those means were measured. */
  perRun: { inputTokens: number; outputTokens: number; modelCalls: number; source: string };
  price: Price | null;
  /** The provider's per-minute limits (lib/jobs ProviderLimit's shape; lib/jobs sits on a higher floor). */
  limit: { requestsPerMinute: number | null; tokensPerMinute: number | null } | null;
}

export interface LiveEstimate {
  runs: number;
  modelCalls: number;
  inputTokens: number;
  outputTokens: number;
  /** Null: the model has no price in config/prices.json (unknown, not free). */
  usd: number | null;
  /** The least time the provider's rpm/tpm limits allow, minutes; null when no per-minute limit is configured. */
  minMinutes: number | null;
  source: string;
}

export function estimateLive(input: LiveEstimateInput): LiveEstimate {
  const runs = input.settings * input.cases * input.epochs;
  const modelCalls = Math.round(runs * input.perRun.modelCalls);
  const inputTokens = Math.round(runs * input.perRun.inputTokens);
  const outputTokens = Math.round(runs * input.perRun.outputTokens);
  const usd = input.price ? usdAt(input.price, { inputTokens, outputTokens, cachedTokens: 0 }) : null;
  const floors: number[] = [];
  if (input.limit?.requestsPerMinute) floors.push(modelCalls / input.limit.requestsPerMinute);
  if (input.limit?.tokensPerMinute) floors.push((inputTokens + outputTokens) / input.limit.tokensPerMinute);
  return { runs, modelCalls, inputTokens, outputTokens, usd, minMinutes: floors.length > 0 ? Math.max(...floors) : null, source: input.perRun.source };
}

/** The estimate in lines a person reads before confirming. */
export function formatLiveEstimate(e: LiveEstimate, model: string): string {
  const usd = e.usd === null ? `cost unknown (no price for ${model} in config/prices.json)` : `about $${e.usd.toFixed(2)}`;
  const time = e.minMinutes === null ? 'no provider rpm/tpm limit configured (STOCKROOM_PROVIDER_LIMITS): time depends on the provider' : `at least ${e.minMinutes.toFixed(1)} min under the provider limits`;
  return [
    `${e.runs} runs, ~${e.modelCalls} model calls, ~${e.inputTokens} input + ~${e.outputTokens} output tokens (per-run means from ${e.source})`,
    `${usd}; ${time}`,
  ].join('\n');
}
