/**
 * The seam for counting tokens locally when a provider's answer carried no usage (OpenAI-compatible
 * servers often send none, most of all when streaming). The count is an estimate, kept apart from
 * reported usage and marked with the tokenizer's name; budgets use it so an unreported call is never
 * free. The harness imports no tokenizer: lib/models hands one in.
 */
import type { ModelResponse, UsageEstimate } from './types';

export interface TokenEstimator {
  /** The tokenizer and encoding, shown beside every estimate (`js-tiktoken o200k_base`). */
  readonly name: string;
  /** Tokens in `text`, or null when it cannot be counted. */
  count(text: string): number | null;
}

/** What a call sent: the system prompt, the messages and the tool specs, as serialised text. */
export interface SentText {
  system: string;
  messages: unknown;
  tools: unknown;
}

/** The text a response carried: its text and each tool call's name and arguments. */
export function receivedText(r: Pick<ModelResponse, 'text' | 'toolCalls'>): string {
  const calls = r.toolCalls.map((c) => `${c.name} ${typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments)}`);
  return [r.text ?? '', ...calls].join('\n');
}

/** The estimate of a call's usage from the text sent and received; null when the estimator cannot count it. */
export function estimateUsage(estimator: TokenEstimator, sent: SentText, r: Pick<ModelResponse, 'text' | 'toolCalls'>): UsageEstimate | null {
  const input = estimator.count([sent.system, JSON.stringify(sent.messages), JSON.stringify(sent.tools)].join('\n'));
  const output = estimator.count(receivedText(r));
  if (input === null || output === null) return null;
  return { inputTokens: input, outputTokens: output, by: estimator.name };
}
