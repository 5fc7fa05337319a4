/**
 * An imported trace's other spans (chains, retrievers, guardrails, custom) are stored in the guard
 * event table under the guard name `span` (reason: the span's kind; detail: JSON of its name,
 * attributes, latency and status), as model-call retries are, so replay lists them in place
 * without a table of their own.
 */
import type { JsonValue } from '../harness/json';
import type { SpanStep } from '../harness/types';

export const SPAN_STEP_GUARD = 'span';

export function spanStepDetail(s: SpanStep): string {
  return JSON.stringify({ name: s.name, attributes: s.attributes, latencyMs: s.latencyMs, isError: s.isError });
}

export function spanStepFromRow(r: { step: number; reason: string; detail: string }): SpanStep {
  let d: { name?: unknown; attributes?: unknown; latencyMs?: unknown; isError?: unknown } = {};
  try {
    d = JSON.parse(r.detail) as typeof d;
  } catch {
    d = { name: r.detail };
  }
  const attributes = typeof d.attributes === 'object' && d.attributes !== null && !Array.isArray(d.attributes) ? (d.attributes as Record<string, JsonValue>) : {};
  return {
    kind: 'span',
    step: r.step,
    spanKind: r.reason,
    name: typeof d.name === 'string' ? d.name : '',
    attributes,
    latencyMs: typeof d.latencyMs === 'number' ? d.latencyMs : 0,
    isError: d.isError === true,
  };
}
