/**
 * One span as a trajectory step: a model call as a model turn, a tool span as a tool record (or a
 * tool call known only from the messages around it), any other span as a step of its own kind
 * with its attributes, input/output, documents and times. Pure; trace-to-run.ts orders them.
 */
import type { JsonValue } from '../../harness';
import { callSignature } from '../../harness';
import type { CallTime, ModelTurn, ToolRecord } from '../../harness';
import { ATTR_ERROR_TYPE, ATTR_GEN_AI_OUTPUT_MESSAGES, EVENTS, STOCKROOM, TOOL_ERROR_TYPES } from '../attributes';
import { textOfRole, type NormMessage } from './conventions/messages';
import { num, str, toolView, type ModelCallView } from './conventions/span-view';
import type { AttrValue, SpanRecord } from './span-record';

const bool = (v: AttrValue | undefined): boolean | null => (typeof v === 'boolean' ? v : null);
export const ms = (ns: bigint) => Number(ns / 1000n) / 1000;

/** Our own export: spans carrying `stockroom.*` (the exact values win over the conventions'). */
export const isOwn = (span: SpanRecord) => STOCKROOM.step in span.attributes;

/** A JSON attribute (stringified JSON, or already structured); undefined when absent or unreadable. */
export function jsonAttr(v: AttrValue | undefined): JsonValue | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') return v as JsonValue;
  try {
    return JSON.parse(v) as JsonValue;
  } catch {
    return undefined;
  }
}

/** Like jsonAttr, but keeps a non-JSON string as the string itself. */
export const jsonOrText = (v: AttrValue | undefined): JsonValue | undefined => jsonAttr(v) ?? (typeof v === 'string' ? v : undefined);

export type Call = ModelTurn['toolCalls'][number];

const assistantText = (messages: NormMessage[] | null) => textOfRole(messages, 'assistant');
export const firstUserText = (messages: NormMessage[] | null) => (messages ?? []).find((m) => m.role === 'user' && m.text !== null)?.text ?? null;

/** Tool calls the model asked for: our own export's names, else the call's output messages. */
export function requestedCalls(span: SpanRecord, view: ModelCallView): Call[] | null {
  const fromOutput = () => (view.output ?? []).flatMap((m) => m.toolCalls).map((c) => ({ toolUseId: c.toolUseId, name: c.name, arguments: c.arguments }));
  // Captured output messages carry the arguments; our own names-only attributes do not.
  if (ATTR_GEN_AI_OUTPUT_MESSAGES in span.attributes && view.output) return fromOutput();
  const names = span.attributes[STOCKROOM.requestedToolNames];
  const ids = span.attributes[STOCKROOM.requestedToolIds];
  if (Array.isArray(names)) {
    return names.map((name, i) => ({ toolUseId: String((Array.isArray(ids) ? ids[i] : null) ?? ''), name: String(name), arguments: {} }));
  }
  const calls = fromOutput();
  return calls.length > 0 ? calls : null;
}

function stopReasonOf(span: SpanRecord, view: ModelCallView, hasCalls: boolean): string {
  const own = str(span.attributes[STOCKROOM.stopReason]);
  if (own) return own;
  const first = view.finishReasons[0] ?? null;
  switch (first) {
    case 'stop':
    case 'end_turn':
      return 'end_turn';
    case 'tool_call':
    case 'tool_calls':
    case 'tool-calls':
    case 'tool_use':
      return 'tool_use';
    case 'length':
    case 'max_tokens':
      return 'max_tokens';
    case null:
      return hasCalls ? 'tool_use' : 'end_turn';
    default:
      return first;
  }
}

/** When a span's call ran, as the tracer that sent it recorded: offsets from the root span's start. */
export function spanTime(root: SpanRecord, span: SpanRecord): CallTime {
  return {
    startedAt: new Date(ms(span.startNs)).toISOString(),
    endedAt: new Date(ms(span.endNs)).toISOString(),
    startMs: ms(span.startNs - root.startNs),
    endMs: ms(span.endNs - root.startNs),
  };
}

export function modelTurn(span: SpanRecord, view: ModelCallView, step: number, calls: Call[]): ModelTurn {
  const a = span.attributes;
  const inputTokens = Math.trunc(view.inputTokens ?? 0);
  const own = isOwn(span);
  const provider = own ? str(a[STOCKROOM.provider]) : view.provider;
  const finishReason = own ? str(a[STOCKROOM.finishReason]) : view.finishReasons.length > 0 ? view.finishReasons.join(', ') : null;
  const turn: ModelTurn = {
    kind: 'model_turn',
    step,
    text: assistantText(view.output),
    toolCalls: calls,
    stopReason: stopReasonOf(span, view, calls.length > 0),
    inputTokens,
    outputTokens: Math.trunc(view.outputTokens ?? 0),
    latencyMs: ms(span.endNs - span.startNs),
    contextTokensEstimate: Math.trunc(num(a[STOCKROOM.contextTokens]) ?? inputTokens),
  };
  // Optional keys set in place (a conditional spread per key allocated an object each, per call).
  if (provider !== null) turn.provider = provider;
  if (finishReason !== null) turn.finishReason = finishReason;
  if (view.cachedTokens !== null) turn.cachedTokens = Math.trunc(view.cachedTokens);
  if (view.timeToFirstChunkS !== null) turn.timeToFirstTokenMs = Math.round(view.timeToFirstChunkS * 1e6) / 1e3;
  return turn;
}

/** A tool's result as a later model call saw it (a tool message answering the call), for tool spans that do not carry it. */
function resultFromLaterCalls(callId: string | null, views: ModelCallView[]): JsonValue | undefined {
  if (callId === null) return undefined;
  for (const v of views) {
    const m = (v.input ?? []).find((x) => x.role === 'tool' && x.toolCallId === callId && x.text !== null);
    if (m) return jsonOrText(m.text!);
  }
  return undefined;
}

export function toolRecord(span: SpanRecord, step: number, requested: Call | undefined, views: ModelCallView[]): ToolRecord {
  const a = span.attributes;
  const view = toolView(span);
  const name = view.name ?? requested?.name ?? span.name.replace(/^execute_tool\s+/, '').replace(/\.tool$/, '');
  const callId = view.callId ?? requested?.toolUseId ?? null;
  const args = (view.arguments ?? requested?.arguments ?? {}) as JsonValue;
  const result = view.result ?? resultFromLaterCalls(callId, views) ?? null;
  const errorType = str(a[ATTR_ERROR_TYPE]);
  const blockedBy = str(a[STOCKROOM.toolBlockedBy]) ?? (errorType === TOOL_ERROR_TYPES.blocked ? 'guard' : null);
  const validationError = str(a[STOCKROOM.toolValidationError]) ?? (errorType === TOOL_ERROR_TYPES.invalid ? span.statusMessage || 'invalid arguments' : null);
  const failedByStatus = span.statusCode === 2 && blockedBy === null && validationError === null && errorType !== TOOL_ERROR_TYPES.quarantined;
  const isError = bool(a[STOCKROOM.toolIsError]) ?? failedByStatus;
  const quarantinedLines = Math.trunc(num(a[STOCKROOM.toolQuarantinedLines]) ?? 0);
  const approval = span.events.find((e) => e.name === EVENTS.approval);
  const decision = str(approval?.attributes['stockroom.policy.decision']);
  return {
    kind: 'tool_call',
    step,
    toolUseId: callId ?? span.spanId,
    name,
    arguments: args,
    signature: callSignature(name, args),
    resultContent: result,
    isError,
    errorCode: str(a[STOCKROOM.toolErrorCode]) ?? (isError ? (errorType ?? (span.statusMessage || 'tool_error')) : null),
    validationError,
    blockedBy,
    executed: bool(a[STOCKROOM.toolExecuted]) ?? (blockedBy === null && validationError === null),
    payloadChars: Math.trunc(num(a[STOCKROOM.toolPayloadChars]) ?? (result === null ? 0 : JSON.stringify(result).length)),
    latencyMs: ms(span.endNs - span.startNs),
    sanitized: bool(a[STOCKROOM.toolSanitized]) ?? (quarantinedLines > 0 || errorType === TOOL_ERROR_TYPES.quarantined),
    quarantinedLines,
    quarantinedText: [],
    rewrittenBy: [],
    policy:
      decision === 'allow' || decision === 'deny' || decision === 'approval_required'
        ? {
            decision,
            rule: str(approval?.attributes['stockroom.policy.rule']) ?? '',
            policyVersion: str(approval?.attributes['stockroom.policy.version']) ?? '',
            resolution: (str(approval?.attributes['stockroom.policy.resolution']) as NonNullable<ToolRecord['policy']>['resolution']) ?? null,
          }
        : null,
  };
}

/** A tool call known only from the messages around it (no tool span): what the model asked, what it got back. */
export function syntheticTool(call: Call, step: number, answer: NormMessage): ToolRecord {
  const result = answer.text === null ? null : (jsonOrText(answer.text) ?? null);
  return {
    kind: 'tool_call',
    step,
    toolUseId: call.toolUseId,
    name: call.name,
    arguments: call.arguments,
    signature: callSignature(call.name, call.arguments),
    resultContent: result,
    isError: false,
    errorCode: null,
    validationError: null,
    blockedBy: null,
    executed: true,
    payloadChars: result === null ? 0 : JSON.stringify(result).length,
    latencyMs: 0,
    sanitized: false,
    quarantinedLines: 0,
    quarantinedText: [],
    rewrittenBy: [],
    policy: null,
  };
}
