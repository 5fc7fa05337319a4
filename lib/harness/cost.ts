/**
 * The cost seam: a meter prices token usage for one model. The loop uses it for the run's cost and
 * for the USD budget guard; prices themselves live outside the harness (lib/models, config/prices.json).
 */
export interface TokenCounts {
  inputTokens: number;
  outputTokens: number;
  /** Prompt tokens served from the provider's cache (part of inputTokens). */
  cachedTokens: number;
  /** Prompt tokens written to the provider's cache (part of inputTokens; priced at the cache-write rate). */
  cacheWriteTokens?: number;
}

export interface CostMeter {
  /** USD for these tokens, or null when the model has no price. */
  usd(tokens: TokenCounts): number | null;
  /** Where the prices come from, shown beside every cost. */
  readonly note: string;
}
