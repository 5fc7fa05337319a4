/**
 * Model-call retries are stored in the guard event table under the guard name `model_retry`
 * (reason: the typed failure), so replay lists them in place without a table of their own.
 */
import type { ModelRetryEvent } from '../harness/types';

export const MODEL_RETRY_GUARD = 'model_retry';

const DETAIL = /^attempt (\d+) failed; retrying in (\d+(?:\.\d+)?) ms: ([\s\S]*)$/;

export function retryDetail(e: Pick<ModelRetryEvent, 'attempt' | 'delayMs' | 'detail'>): string {
  return `attempt ${e.attempt} failed; retrying in ${e.delayMs} ms: ${e.detail}`;
}

export function retryFromRow(r: { step: number; reason: string; detail: string }): ModelRetryEvent {
  const m = DETAIL.exec(r.detail);
  return {
    kind: 'model_retry',
    step: r.step,
    attempt: m ? Number(m[1]) : 0,
    reason: r.reason,
    delayMs: m ? Number(m[2]) : 0,
    detail: m ? (m[3] as string) : r.detail,
  };
}
