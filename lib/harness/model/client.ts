/**
 * The narrow, Converse-shaped model interface the loop talks to. A live Bedrock client and the
 * deterministic fake both implement it.
 */
import type { TokenEstimator } from '../token-estimator';
import type { Message, ModelResponse, ToolSpec } from '../types';
import type { StreamedPartial } from '../errors';

export interface ConverseRequest {
  system: string;
  /** Messages exactly as the model sees them (private keys already stripped). */
  messages: Message[];
  tools: ToolSpec[];
  maxTokens: number;
  /** Aborts the call (the run was cancelled). */
  signal?: AbortSignal;
  /** Told about each retry a resilient client makes, so the loop can record it in the trajectory. */
  onRetry?: (event: ModelRetryNotice) => void;
  /** Told when the wait before retry `attempt` is over (or was cut short by the signal). */
  onRetryWaited?: (attempt: number) => void;
  /** Streamed calls only: told each piece of answer text as it arrives (a retried attempt's pieces included). */
  onDelta?: (delta: { text: string }) => void;
}

export type { StreamedPartial } from '../errors';

/** One retry of a model call: which attempt failed, why, and how long the client waits before the next. */
export interface ModelRetryNotice {
  attempt: number;
  reason: string;
  detail: string;
  delayMs: number;
  /** A streamed attempt: what had arrived before it failed. */
  partial?: StreamedPartial;
}

export interface ModelClient {
  readonly modelId: string;
  /** Where its calls go (a provider client's base URL or endpoint); live clients' circuit breakers are keyed by it. */
  readonly endpoint?: string;
  /**
   * How this model's tokens are counted locally when an answer reports no usage (live clients); the
   * run's own `tokenEstimator` option wins. Without either, such a call fails the budgets closed.
   */
  readonly tokenEstimator?: TokenEstimator;
  converse(request: ConverseRequest): Promise<ModelResponse>;
}
