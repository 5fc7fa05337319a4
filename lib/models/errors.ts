/**
 * Why a live model call failed, as one typed reason. Provider SDK errors (openai, anthropic, AWS)
 * and resilience-policy errors (cockatiel) are classified here so the loop sees a ModelCallError
 * whose `kind` is one of MODEL_ERROR_REASONS.
 */
import { BrokenCircuitError, TaskCancelledError } from 'cockatiel';
import { ModelCallError, type StreamedPartial } from '../harness';

export const MODEL_ERROR_REASONS = [
  'throttled',
  'auth',
  'timeout',
  'bad_request',
  'server_error',
  'bad_response',
  'circuit_open',
  'cancelled',
] as const;
export type ModelErrorReason = (typeof MODEL_ERROR_REASONS)[number];

/** A classified provider failure. `retryAfterMs` is the provider's Retry-After, when it sent one. */
export class ProviderCallError extends ModelCallError {
  declare readonly kind: ModelErrorReason;
  readonly status: number | null;
  readonly retryAfterMs: number | null;
  constructor(
    kind: ModelErrorReason,
    message: string,
    details: { status?: number | null; retryAfterMs?: number | null; cause?: unknown; usage?: { inputTokens: number; outputTokens: number }; partial?: StreamedPartial | null } = {},
  ) {
    super(kind, message, { cause: details.cause, ...(details.usage ? { usage: details.usage } : {}), partial: details.partial });
    this.status = details.status ?? null;
    this.retryAfterMs = details.retryAfterMs ?? null;
  }

  /** The same failure, with what its streamed attempt had received. */
  withPartial(partial: StreamedPartial): ProviderCallError {
    return new ProviderCallError(this.kind, this.message, { status: this.status, retryAfterMs: this.retryAfterMs, cause: this.cause, usage: this.usage, partial });
  }

  /** Throttling, timeouts and server errors may pass on a later attempt; the rest will not. */
  get retryable(): boolean {
    return this.kind === 'throttled' || this.kind === 'timeout' || this.kind === 'server_error';
  }
}

/** Retry-After as seconds or an HTTP date, in milliseconds; null when absent or unreadable. */
export function parseRetryAfter(value: string | null | undefined, now = Date.now()): number | null {
  if (value == null || value.trim() === '') return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

/** The typed reason for an HTTP status. */
export function reasonForStatus(status: number): ModelErrorReason {
  if (status === 401 || status === 403) return 'auth';
  if (status === 408) return 'timeout';
  if (status === 429) return 'throttled';
  if (status >= 500) return 'server_error';
  return 'bad_request';
}

/** Classifies cockatiel's own refusals (open circuit, per-call timeout); null for anything else. */
export function classifyPolicyError(err: unknown, provider: string): ProviderCallError | null {
  if (err instanceof ProviderCallError) return err;
  if (err instanceof BrokenCircuitError) {
    return new ProviderCallError('circuit_open', `the circuit for ${provider} is open after repeated failures; not calling it`, { cause: err });
  }
  if (err instanceof TaskCancelledError) return new ProviderCallError('timeout', `${provider} did not answer in time`, { cause: err });
  return null;
}

/**
 * A response body cut mid-way (the connection closed inside it): transient like a 5xx, so it is
 * classified `server_error` and retried (issue 40). Seen on the wire: undici's `TypeError:
 * terminated` (OpenAI and Anthropic SDKs, cause "other side closed"), and Node's ECONNRESET
 * `aborted` through the AWS SDK's HTTP handler (Bedrock).
 */
export function cutBodyError(err: unknown, provider: string): ProviderCallError | null {
  const e = err as { message?: unknown; code?: unknown } | null;
  const cut = (err instanceof TypeError && e?.message === 'terminated') || e?.code === 'ECONNRESET';
  if (!cut) return null;
  return new ProviderCallError('server_error', `${provider}'s answer was cut mid-body (the connection closed inside it)`, { cause: err });
}
