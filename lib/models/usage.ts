/**
 * Usage as a provider reported it. An answer without a usage object, or without a count in it, is
 * unknown (null), never 0: OpenAI-compatible servers (vLLM, Ollama, LM Studio, proxies) often omit
 * it, most of all when streaming.
 */

/** A count the provider sent, or null when it sent none (absent, null, or not a whole number ≥ 0). */
export function reportedCount(value: unknown): number | null {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : null;
}

/** Input and output tokens, both reported or both null (half a report cannot be priced). */
export function reportedPair(input: unknown, output: unknown): { inputTokens: number | null; outputTokens: number | null } {
  const i = reportedCount(input);
  const o = reportedCount(output);
  return i === null || o === null ? { inputTokens: null, outputTokens: null } : { inputTokens: i, outputTokens: o };
}

/** The usage to keep on an error for an answer that could not be used (it was billed); undefined when none was reported. */
export function billedUsage(pair: { inputTokens: number | null; outputTokens: number | null }): { inputTokens: number; outputTokens: number } | undefined {
  return pair.inputTokens === null || pair.outputTokens === null ? undefined : { inputTokens: pair.inputTokens, outputTokens: pair.outputTokens };
}
