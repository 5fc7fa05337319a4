/**
 * Model-call retries are stored in the guard event table under the guard name `model_retry`
 * (reason: the typed failure), so replay lists them in place without a table of their own.
 */
import { GuardrailEventSchema, partialFromDetail, type GuardrailEvent, type ModelRetryEvent } from '../../harness';

export const MODEL_RETRY_GUARD = 'model_retry';

const DETAIL = /^attempt (\d+) failed; retrying in (\d+(?:\.\d+)?) ms: ([\s\S]*)$/;

export function retryDetail(e: Pick<ModelRetryEvent, 'attempt' | 'delayMs' | 'detail'>): string {
  return `attempt ${e.attempt} failed; retrying in ${e.delayMs} ms: ${e.detail}`;
}

export function retryFromRow(r: { step: number; reason: string; detail: string }): ModelRetryEvent {
  const m = DETAIL.exec(r.detail);
  const detail = m ? (m[3] as string) : r.detail;
  // A streamed attempt's partial answer is kept in its detail (lib/harness/model/partial.ts).
  const partial = partialFromDetail(detail);
  return {
    kind: 'model_retry',
    step: r.step,
    attempt: m ? Number(m[1]) : 0,
    reason: r.reason,
    delayMs: m ? Number(m[2]) : 0,
    detail,
    ...(partial ? { partial } : {}),
  };
}

/**
 * Guardrail events share the table too (issue 28): guard `guardrail`, reason the action, detail the
 * event as JSON (findings are masked before they are recorded, so no value they found is stored).
 */
export const GUARDRAIL_GUARD = 'guardrail';

export function guardrailFromRow(r: { step: number; reason: string; detail: string }): GuardrailEvent | null {
  let raw: unknown;
  try {
    raw = JSON.parse(r.detail);
  } catch {
    return null;
  }
  const parsed = GuardrailEventSchema.safeParse(raw);
  return parsed.success ? parsed.data : null;
}
