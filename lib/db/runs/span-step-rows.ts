/**
 * An imported trace's other spans (chains, retrievers, guardrails, embeddings, custom) are stored in
 * the guard event table under the guard name `span` (reason: the span's kind; detail: JSON of its
 * name, attributes, latency, status, input/output and documents; its times in the row's time
 * columns), as model-call retries are, so replay lists them in place without a table of their own.
 */
import type { JsonValue } from '../../harness';
import { SpanDocumentSchema, type SpanDocument, type SpanStep } from '../../harness';

export const SPAN_STEP_GUARD = 'span';

export function spanStepDetail(s: SpanStep): string {
  return JSON.stringify({
    name: s.name,
    attributes: s.attributes,
    latencyMs: s.latencyMs,
    isError: s.isError,
    ...(s.input !== undefined ? { input: s.input } : {}),
    ...(s.output !== undefined ? { output: s.output } : {}),
    ...(s.documents ? { documents: s.documents } : {}),
    ...(s.inputDocuments ? { inputDocuments: s.inputDocuments } : {}),
  });
}

function documentsOf(v: unknown): SpanDocument[] | undefined {
  if (!Array.isArray(v)) return undefined;
  return v.flatMap((d) => {
    const parsed = SpanDocumentSchema.safeParse(d);
    return parsed.success ? [parsed.data] : [];
  });
}

/** The span step of a row (its times and tree columns are added by the caller). */
export function spanStepFromRow(r: { step: number; reason: string; detail: string }): SpanStep {
  let d: Record<string, unknown> = {};
  try {
    d = JSON.parse(r.detail) as Record<string, unknown>;
  } catch {
    d = { name: r.detail };
  }
  const attributes = typeof d.attributes === 'object' && d.attributes !== null && !Array.isArray(d.attributes) ? (d.attributes as Record<string, JsonValue>) : {};
  const documents = documentsOf(d.documents);
  const inputDocuments = documentsOf(d.inputDocuments);
  return {
    kind: 'span',
    step: r.step,
    spanKind: r.reason,
    name: typeof d.name === 'string' ? d.name : '',
    attributes,
    latencyMs: typeof d.latencyMs === 'number' ? d.latencyMs : 0,
    isError: d.isError === true,
    ...(typeof d.input === 'string' ? { input: d.input } : {}),
    ...(typeof d.output === 'string' ? { output: d.output } : {}),
    ...(documents ? { documents } : {}),
    ...(inputDocuments ? { inputDocuments } : {}),
  };
}
