/** Tunables of the live model clients: timeouts, retries, backoff and the circuit breaker. */

/** One attempt's deadline, ms (a slow model answers a long prompt in well under this); MODEL_CALL_TIMEOUT_S sets it per run. */
export const MODEL_CALL_TIMEOUT_MS = 60_000;
/** Retries after the first attempt, for throttling, timeouts and server errors; MODEL_CALL_RETRIES sets it per run. */
export const MODEL_CALL_RETRIES = 3;
/**
 * The SDKs' own request timeout, ms: off (the longest a Node timer waits). The resilience layer's
 * per-attempt timeout and the run's deadline cut a call off; an SDK timer would only race them.
 */
export const SDK_TIMEOUT_OFF_MS = 2_147_483_647;
/** The first backoff's ceiling, ms; doubles per retry (full jitter below it). */
export const MODEL_RETRY_INITIAL_DELAY_MS = 500;
/** The backoff ceiling, ms. */
export const MODEL_RETRY_MAX_DELAY_MS = 8_000;
/** The longest Retry-After honoured, ms; a longer one is waited for only this long. */
export const MODEL_RETRY_AFTER_CAP_MS = 30_000;
/** Consecutive failed calls (after their retries) that open a provider+model circuit. */
export const MODEL_BREAKER_THRESHOLD = 5;
/** How long an open circuit refuses calls before letting one probe through, ms. */
export const MODEL_BREAKER_HALF_OPEN_AFTER_MS = 30_000;
/** The most of a failed streamed attempt's output kept on its retry record, characters (the count of all is kept beside it). */
export const PARTIAL_TEXT_MAX_CHARS = 2_000;
