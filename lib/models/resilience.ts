/**
 * Resilience around any provider ModelClient: a per-attempt timeout (cockatiel), retries with
 * exponential backoff and full jitter that honour Retry-After (waits the caller's signal cuts
 * short), and one circuit breaker (cockatiel) per provider, endpoint and model shared by every run
 * (agent and judge alike) in the process: two servers answering to the same model name never open
 * each other's circuit. SDK retries are off, so attempts never
 * multiply. Each retry is reported through `request.onRetry` for the trajectory; a failure leaves
 * as a ProviderCallError with a typed reason.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { circuitBreaker, ConsecutiveBreaker, handleWhen, timeout, TimeoutStrategy, type CircuitBreakerPolicy } from 'cockatiel';
import type { ConverseRequest, ModelClient } from '../harness';
import type { ModelResponse } from '../harness';
import { partialNote } from '../harness';
import { classifyPolicyError, ProviderCallError } from './errors';
import * as T from './tunables';

/**
 * Called before each attempt, outside its timeout, so waiting here is not a timed-out attempt:
 * waits until the attempt may be sent (provider limits shared by workers) and returns what to call
 * once it has ended, with the response (null when it failed).
 */
export type AttemptGate = (request: ConverseRequest, signal: AbortSignal) => Promise<(response: ModelResponse | null) => Promise<void>>;

export interface ResilienceOptions {
  /** Per-attempt timeout, ms. */
  timeoutMs: number;
  /** Retries after the first attempt. */
  retries: number;
  /** First backoff ceiling and the cap, ms (full jitter below the ceiling). */
  initialDelayMs: number;
  maxDelayMs: number;
  /** Consecutive failed calls that open the circuit, and how long it stays open before a probe. */
  breakerThreshold: number;
  halfOpenAfterMs: number;
  /** Jitter source in [0, 1); tests pass a constant. */
  random?: () => number;
}

export const DEFAULT_RESILIENCE: ResilienceOptions = {
  timeoutMs: T.MODEL_CALL_TIMEOUT_MS,
  retries: T.MODEL_CALL_RETRIES,
  initialDelayMs: T.MODEL_RETRY_INITIAL_DELAY_MS,
  maxDelayMs: T.MODEL_RETRY_MAX_DELAY_MS,
  breakerThreshold: T.MODEL_BREAKER_THRESHOLD,
  halfOpenAfterMs: T.MODEL_BREAKER_HALF_OPEN_AFTER_MS,
};

/** Failures a later attempt may get past. Cancellation and the caller's own mistakes are not retried. */
function retryable(err: unknown): boolean {
  const classified = classifyPolicyError(err, '');
  return classified !== null && classified.retryable;
}

/** Failures that say the endpoint is unhealthy (and so count towards opening its circuit). */
function unhealthy(err: unknown): boolean {
  const classified = classifyPolicyError(err, '');
  return classified !== null && ['throttled', 'timeout', 'server_error', 'bad_response'].includes(classified.kind);
}

/** The wait before retry `attempt` (1-based): the provider's Retry-After if it sent one, else jittered exponential. */
export function retryDelay(err: unknown, attempt: number, o: ResilienceOptions): number {
  if (err instanceof ProviderCallError && err.retryAfterMs !== null) return Math.min(err.retryAfterMs, T.MODEL_RETRY_AFTER_CAP_MS);
  const ceiling = Math.min(o.maxDelayMs, o.initialDelayMs * 2 ** (attempt - 1));
  return Math.round((o.random ?? Math.random)() * ceiling);
}

const breakers = new Map<string, CircuitBreakerPolicy>();

/** The breaker key of a client: provider:model at its endpoint (a client without one: its model id). */
export function breakerKeyOf(client: Pick<ModelClient, 'modelId' | 'endpoint'>): string {
  return client.endpoint ? `${client.modelId} @ ${client.endpoint.replace(/\/+$/, '')}` : client.modelId;
}

/** The process-wide breaker for one provider+endpoint+model (created on first use with these options). */
export function breakerFor(key: string, o: ResilienceOptions): CircuitBreakerPolicy {
  let b = breakers.get(key);
  if (!b) {
    b = circuitBreaker(handleWhen(unhealthy), { halfOpenAfter: o.halfOpenAfterMs, breaker: new ConsecutiveBreaker(o.breakerThreshold) });
    breakers.set(key, b);
  }
  return b;
}

/** Forgets every breaker (tests). */
export function resetBreakers(): void {
  breakers.clear();
}

export class ResilientModelClient implements ModelClient {
  readonly modelId: string;
  readonly endpoint?: string;
  private readonly breakerKey: string;
  private readonly options: ResilienceOptions;

  constructor(
    private readonly inner: ModelClient,
    options: Partial<ResilienceOptions> = {},
    /** Each attempt (a retry too: the provider counts every request) passes it first. */
    private readonly gate?: AttemptGate,
  ) {
    this.modelId = inner.modelId;
    this.endpoint = inner.endpoint;
    this.breakerKey = breakerKeyOf(inner);
    this.options = { ...DEFAULT_RESILIENCE, ...options };
  }

  async converse(request: ConverseRequest): Promise<ModelResponse> {
    const o = this.options;
    const attemptTimeout = timeout(o.timeoutMs, TimeoutStrategy.Aggressive);
    const gate = this.gate;
    // One request to the provider: through the rate gate first (the provider counts every request,
    // a retry too), then under the per-attempt timeout.
    const attempt = async (signal: AbortSignal): Promise<ModelResponse> => {
      const send = () => attemptTimeout.execute(({ signal: timed }) => this.inner.converse({ ...request, signal: timed }), signal);
      if (!gate) return send();
      const done = await gate(request, signal);
      let response: ModelResponse | null = null;
      try {
        response = await send();
        return response;
      } finally {
        await done(response).catch(() => undefined);
      }
    };
    // Our own retry loop rather than cockatiel's retry: its wait between attempts ignores the abort
    // signal, so a Ctrl-C, a Stop or the run's deadline during a `Retry-After: 30` waited the 30 s out.
    const attempts = async (signal: AbortSignal): Promise<ModelResponse> => {
      for (let n = 1; ; n += 1) {
        try {
          return await attempt(signal);
        } catch (err) {
          if (signal.aborted || n > o.retries || !retryable(err)) throw err;
          const delayMs = retryDelay(err, n, o);
          const failure = classifyPolicyError(err, this.modelId);
          // A streamed attempt that failed part-way: what it had received is kept on its record.
          const partial = failure?.partial ?? null;
          const detail = (failure?.message ?? String(err)) + (partial ? partialNote(partial) : '');
          request.onRetry?.({ attempt: n, reason: failure?.kind ?? 'server_error', detail, delayMs, ...(partial ? { partial } : {}) });
          try {
            await sleep(delayMs, undefined, { signal });
          } finally {
            request.onRetryWaited?.(n);
          }
        }
      }
    };
    try {
      return await breakerFor(this.breakerKey, o).execute(({ signal }) => attempts(signal), request.signal);
    } catch (err) {
      if (request.signal?.aborted) throw new ProviderCallError('cancelled', `${this.modelId} call cancelled`, { cause: err });
      throw classifyPolicyError(err, this.modelId) ?? new ProviderCallError('bad_response', String(err), { cause: err });
    }
  }
}
