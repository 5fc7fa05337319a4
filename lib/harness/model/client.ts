/**
 * The narrow, Converse-shaped model interface the loop talks to. A live Bedrock client and the
 * deterministic fake both implement it.
 */
import type { TokenEstimator } from '../token-estimator';
import type { Message, ModelResponse, ToolSpec } from '../types';

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

/** What a streamed attempt that failed had received: its output text (bounded), and how much arrived in all. */
export interface StreamedPartial {
  /** The output that arrived (answer text and tool-call input, in order), at most the client's bound. */
  text: string;
  /** Characters of output that arrived in all (more than `text` holds when it was bounded). */
  chars: number;
  /** Stream events that arrived. */
  events: number;
}

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
