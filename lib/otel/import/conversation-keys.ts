/**
 * Joining bare model-call traces into one run: a trace that is one model call (an instrumented
 * client used as is) names the conversation it continues, so the store can join it to the run of
 * the trace it follows.
 */
import { createHash } from 'node:crypto';
import type { JsonValue } from '../../harness';
import { kindOf as spanKindOf, modelCallView } from './conventions/span-view';
import type { NormMessage } from './conventions/messages';
import type { SpanRecord } from './span-record';

const byStart = (a: SpanRecord, b: SpanRecord) => (a.startNs < b.startNs ? -1 : a.startNs > b.startNs ? 1 : 0);

/** The root: the agent span nothing else in the trace parents, else the earliest parentless span. */
function rootOf(spans: SpanRecord[]): SpanRecord {
  const ids = new Set(spans.map((s) => s.spanId));
  const parentless = spans.filter((s) => s.parentSpanId === null || !ids.has(s.parentSpanId));
  return parentless.filter((s) => spanKindOf(s) === 'agent').sort(byStart)[0] ?? parentless.sort(byStart)[0] ?? [...spans].sort(byStart)[0]!;
}

const canonical = (v: JsonValue): string =>
  v === null || typeof v !== 'object' ? JSON.stringify(v) : Array.isArray(v) ? `[${v.map(canonical).join(',')}]` : `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonical(v[k]!)}`).join(',')}}`;
const messageKey = (m: NormMessage) => JSON.stringify([m.role, m.text ?? '', m.toolCalls.map((c) => [c.toolUseId, c.name, canonical(c.arguments)]), m.toolCallId ?? '']);
const conversationDigest = (service: string | null, messages: NormMessage[]) => createHash('sha256').update(JSON.stringify([service ?? '', ...messages.map(messageKey)])).digest('hex');

/**
 * How a trace that is one bare model call (no agent span: an instrumented client used as is, each
 * call its own trace) continues a conversation: `tail` names the conversation after this call
 * (its input and output messages), `prefixes` the conversations its input continues (its input up
 * to each assistant message). The store joins a trace whose prefix is another's tail into that
 * trace's run, so one agent run is one run however its calls were traced. Null for other traces.
 */
export function conversationKeys(spans: SpanRecord[]): { tail: string | null; prefixes: string[] } | null {
  const root = rootOf(spans);
  if (spanKindOf(root) !== 'chat' || spans.some((s) => spanKindOf(s) === 'agent')) return null;
  const view = modelCallView(root);
  const input = view.input ?? [];
  if (input.length === 0) return null;
  const prefixes: string[] = [];
  input.forEach((m, i) => {
    if (m.role === 'assistant') prefixes.push(conversationDigest(root.serviceName, input.slice(0, i + 1)));
  });
  const output = (view.output ?? []).map((m) => ({ ...m, finishReason: null }));
  return { tail: output.length > 0 ? conversationDigest(root.serviceName, [...input, ...output]) : null, prefixes };
}

