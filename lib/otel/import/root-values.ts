/**
 * What a trace's root says about the run as a whole: the question, the system prompt, the
 * messages a call saw in our own Converse shape, our own export's guard/compaction/transition
 * events, and which convention wrote the trace.
 */
import type { JsonValue } from '../../harness';
import { GuardrailEventSchema, TERMINATION_REASONS, type CompactionEvent, type GuardEvent, type GuardrailEvent, type TerminationReason, type Transition } from '../../harness';
import { ToolSessionEventSchema, type ToolSessionEvent } from '../../harness';
import { ATTR_GEN_AI_INPUT_MESSAGES, ATTR_GEN_AI_OPERATION_NAME, EVENTS, OPENINFERENCE, STOCKROOM } from '../attributes';
import { eventMessages, textOfRole, type NormMessage } from './conventions/messages';
import { agentIo, modelCallView, num, str, type ModelCallView } from './conventions/span-view';
import type { AttrMap, AttrValue, SpanRecord } from './span-record';
import { firstUserText, jsonAttr, jsonOrText } from './step-records';

/** Which convention a trace followed. */
export type TraceFormat = 'genai' | 'openinference' | 'ai-sdk' | 'openllmetry';

export const genAiText = (v: AttrValue | undefined, role: 'user' | 'assistant') => textOfRole(messageListOf(v), role);
function messageListOf(v: AttrValue | undefined): NormMessage[] | null {
  // Nothing to read (most roots): no view to build.
  if (v === undefined || v === null) return null;
  return modelCallView({ traceId: '', spanId: '', parentSpanId: null, name: '', kind: 0, startNs: 0n, endNs: 0n, attributes: { [ATTR_GEN_AI_INPUT_MESSAGES]: v ?? null }, events: [], statusCode: 0, statusMessage: '', serviceName: null }).input;
}

export function queryOf(root: SpanRecord, rootIsCall: boolean, chats: ModelCallView[]): string {
  const own = str(root.attributes[STOCKROOM.query]);
  if (own) return own;
  const fromRoot = genAiText(root.attributes[ATTR_GEN_AI_INPUT_MESSAGES], 'user') ?? (rootIsCall ? null : rootEventText(root, 'user')) ?? (rootIsCall ? null : agentIo(root).input);
  if (fromRoot) return fromRoot;
  return firstUserText(chats[0]?.input ?? null) ?? root.name;
}

/** The last text of a role in an agent span's own content events (Strands: `gen_ai.user.message`, `gen_ai.choice`). */
export function rootEventText(root: SpanRecord, role: 'user' | 'assistant'): string | null {
  const { input, output } = eventMessages(root.events);
  const list = role === 'user' ? input : output;
  return [...(list ?? [])].reverse().find((m) => m.role === role && m.text !== null && m.text !== '')?.text ?? null;
}

/** `gen_ai.system_instructions` (a list of parts, or plain text) as one string. */
export function systemPromptOf(v: AttrValue | undefined): string | null {
  const parsed = jsonOrText(v);
  if (typeof parsed === 'string') return parsed;
  if (!Array.isArray(parsed)) return null;
  return parsed.map((p) => (typeof p === 'object' && p !== null && !Array.isArray(p) && typeof p.content === 'string' ? p.content : '')).join('\n');
}

/** Converse-shaped messages a chat span captured (our own export's content), else undefined. */
export function converseMessages(span: SpanRecord): JsonValue[] | undefined {
  const parsed = jsonAttr(span.attributes[ATTR_GEN_AI_INPUT_MESSAGES]);
  if (!Array.isArray(parsed)) return undefined;
  const converse = parsed.every((m) => typeof m === 'object' && m !== null && !Array.isArray(m) && Array.isArray((m as { content?: unknown }).content));
  return converse ? parsed : undefined;
}

export function rootEvents(root: SpanRecord): { entries: Array<[number, GuardEvent | CompactionEvent | GuardrailEvent | ToolSessionEvent]>; transitions: Transition[] | null } {
  const entries: Array<[number, GuardEvent | CompactionEvent | GuardrailEvent | ToolSessionEvent]> = [];
  const transitions: Array<[number, Transition]> = [];
  for (const e of root.events) {
    const a: AttrMap = e.attributes;
    const step = Math.trunc(num(a[STOCKROOM.step]) ?? 0);
    const index = num(a[STOCKROOM.trajectoryIndex]) ?? Number.MAX_SAFE_INTEGER;
    if (e.name === EVENTS.guardrail) {
      const raw = jsonAttr(a['stockroom.guardrail.event']);
      const parsed = raw === undefined ? null : GuardrailEventSchema.safeParse(raw);
      if (parsed?.success) entries.push([index, parsed.data]);
    } else if (e.name === EVENTS.toolSession) {
      const raw = jsonAttr(a['stockroom.tool_session.event']);
      const parsed = raw === undefined ? null : ToolSessionEventSchema.safeParse(raw);
      if (parsed?.success) entries.push([index, parsed.data]);
    } else if (e.name === EVENTS.guard) {
      const reason = str(a['stockroom.guard.reason']);
      if (!reason || !(TERMINATION_REASONS as readonly string[]).includes(reason)) continue;
      entries.push([index, { kind: 'guard', step, guard: str(a['stockroom.guard.name']) ?? 'unknown', reason: reason as TerminationReason, detail: str(a['stockroom.guard.detail']) ?? '' }]);
    } else if (e.name === EVENTS.compaction) {
      entries.push([
        index,
        {
          kind: 'compaction',
          step,
          tokensBefore: Math.trunc(num(a['stockroom.compaction.tokens_before']) ?? 0),
          tokensAfter: Math.trunc(num(a['stockroom.compaction.tokens_after']) ?? 0),
          resultsSummarised: Math.trunc(num(a['stockroom.compaction.results_summarised']) ?? 0),
        },
      ]);
    } else if (e.name === EVENTS.transition) {
      const from = str(a['stockroom.transition.from']);
      const to = str(a['stockroom.transition.to']);
      if (!from || !to) continue;
      transitions.push([num(a['stockroom.transition.index']) ?? transitions.length, { step, from, to, reason: str(a['stockroom.transition.reason']) ?? '' } as Transition]);
    }
  }
  return { entries, transitions: transitions.length > 0 ? transitions.sort((x, y) => x[0] - y[0]).map(([, t]) => t) : null };
}

export function formatOf(spans: SpanRecord[]): TraceFormat {
  const has = (prefix: string) => spans.some((s) => Object.keys(s.attributes).some((k) => k.startsWith(prefix)));
  if (has('ai.operationId')) return 'ai-sdk';
  if (has('traceloop.') || has('gen_ai.prompt.') || has('llm.usage.')) return 'openllmetry';
  if (has(OPENINFERENCE.spanKind) && !has(ATTR_GEN_AI_OPERATION_NAME)) return 'openinference';
  return 'genai';
}

