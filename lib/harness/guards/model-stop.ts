/**
 * A model turn that ended the conversation without really finishing: an answer cut at the output
 * limit, a refusal, or an answer a content filter or guardrail withheld. Such a turn is not a
 * completion, so it stops the run with its own typed reason instead of COMPLETED. A truncated turn
 * that still asks for tools goes on: its calls are validated like any other (a cut call gets an
 * `invalid_arguments` result the model can correct).
 */
import type { ModelResponse, TerminationReason } from '../types';
import { CONTINUE, stop, type GuardVerdict } from './verdict';

const STOPS: Partial<Record<ModelResponse['stopReason'], { reason: TerminationReason; what: (maxTokens: number) => string }>> = {
  max_tokens: { reason: 'OUTPUT_TRUNCATED', what: (n) => `the model's answer was cut at the output limit of ${n} tokens` },
  refusal: { reason: 'MODEL_REFUSED', what: () => 'the model refused to answer' },
  content_filter: { reason: 'CONTENT_FILTERED', what: () => "the provider's content filter or guardrail withheld the answer" },
};

/**
 * An answer with no text and no tool call (OpenAI's empty `content` or empty `choices`, Anthropic's
 * and Bedrock's empty content list): the model said nothing, so the run has no answer to complete
 * with. The loop asks once more; a second empty answer in a row stops the run EMPTY_ANSWER.
 */
export function isEmptyAnswer(response: Pick<ModelResponse, 'text' | 'toolCalls'>): boolean {
  return response.toolCalls.length === 0 && (response.text ?? '').trim() === '';
}

/** The verdict for an empty answer the model gave again after it was asked once more. */
export function emptyAnswerStop(response: Pick<ModelResponse, 'stopReason' | 'finishReason' | 'provider'>): GuardVerdict {
  const own = response.finishReason !== undefined ? ` (${response.provider ?? 'model'} said "${response.finishReason}")` : '';
  return stop('model', 'EMPTY_ANSWER', `the model answered with no text and no tool call twice in a row${own}`);
}

export function modelStopGuard(response: Pick<ModelResponse, 'stopReason' | 'finishReason' | 'toolCalls' | 'provider'>, maxTokens: number): GuardVerdict {
  const s = STOPS[response.stopReason];
  if (!s) return CONTINUE;
  if (s.reason === 'OUTPUT_TRUNCATED' && response.toolCalls.length > 0) return CONTINUE;
  const own = response.finishReason !== undefined ? ` (${response.provider ?? 'model'} said "${response.finishReason}")` : '';
  return stop('model', s.reason, `${s.what(maxTokens)}${own}`);
}
