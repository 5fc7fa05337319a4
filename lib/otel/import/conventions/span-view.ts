/**
 * What one span says, whichever convention wrote it: OpenTelemetry GenAI (spans, span events and
 * log records), OpenInference (every span kind), the Vercel AI SDK (`ai.*`) and OpenLLMetry
 * (`traceloop.*`, `gen_ai.prompt.N.*`, `llm.usage.*`). Keys come from the conventions' own packages
 * where they publish them; the AI SDK publishes none (attributes.ts names its keys once).
 */
import { OpenInferenceSpanKind, SemanticConventions as OI } from '@arizeai/openinference-semantic-conventions';
import {
  ATTR_GEN_AI_COMPLETION,
  ATTR_GEN_AI_INPUT_MESSAGES,
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_OUTPUT_MESSAGES,
  ATTR_GEN_AI_PROMPT,
  ATTR_GEN_AI_PROVIDER_NAME,
  ATTR_GEN_AI_REQUEST_MODEL,
  ATTR_GEN_AI_RESPONSE_FINISH_REASONS,
  ATTR_GEN_AI_RESPONSE_MODEL,
  ATTR_GEN_AI_TOOL_CALL_ARGUMENTS,
  ATTR_GEN_AI_TOOL_CALL_ID,
  ATTR_GEN_AI_TOOL_CALL_RESULT,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_GEN_AI_USAGE_CACHE_READ_INPUT_TOKENS,
  ATTR_GEN_AI_RESPONSE_TIME_TO_FIRST_CHUNK,
  ATTR_GEN_AI_USAGE_COMPLETION_TOKENS,
  ATTR_GEN_AI_USAGE_INPUT_TOKENS,
  ATTR_GEN_AI_USAGE_OUTPUT_TOKENS,
  ATTR_GEN_AI_USAGE_PROMPT_TOKENS,
  EVENT_GEN_AI_CLIENT_INFERENCE_OPERATION_DETAILS,
  GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL,
  GEN_AI_OPERATION_NAME_VALUE_INVOKE_AGENT,
} from '@opentelemetry/semantic-conventions/incubating';
import { SpanAttributes as TL, TraceloopSpanKindValues } from '@traceloop/ai-semantic-conventions';
import type { JsonValue, SetAside } from '../../../harness';
import { tagsFromValues } from '../../../eval';
import { AI_SDK, AI_SDK_MODEL_OPERATIONS, AI_SDK_ROOT_OPERATIONS, ATTR_GEN_AI_SYSTEM_OLD, OPENLLMETRY_LEGACY } from '../../attributes';
import type { AttrMap, AttrValue, SpanRecord } from '../span-record';
import { eventMessages, flattenedPromptMessages, jsonAttr, messageList, openInferenceMessages, type NormCall, type NormMessage } from './messages';

export type SpanKind = 'chat' | 'tool' | 'agent' | 'step';

const CHAT_OPERATIONS = new Set(['chat', 'text_completion', 'generate_content']);

export const str = (v: AttrValue | undefined): string | null => (typeof v === 'string' ? v : null);
/** A finite number, or the digits of one; null otherwise (a string of 400 digits is no number the run can hold). */
export const num = (v: AttrValue | undefined): number | null =>
  typeof v === 'number' ? (Number.isFinite(v) ? v : null) : typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v) && Number.isFinite(Number(v)) ? Number(v) : null;
/** The first of `keys` that holds a string (a number), else null; a plain loop: this runs for every key of every span. */
function firstStr(a: AttrMap, keys: readonly string[]): string | null {
  for (const k of keys) {
    const v = a[k];
    if (typeof v === 'string') return v;
  }
  return null;
}
function firstNum(a: AttrMap, keys: readonly string[]): number | null {
  for (const k of keys) {
    const v = num(a[k]);
    if (v !== null) return v;
  }
  return null;
}

/** What kind of span this is: a model call, a tool call, an agent (root), or some other step. */
export function kindOf(span: SpanRecord): SpanKind {
  const a = span.attributes;
  const op = str(a[ATTR_GEN_AI_OPERATION_NAME]);
  const oi = str(a[OI.OPENINFERENCE_SPAN_KIND])?.toUpperCase();
  const aiOp = str(a[AI_SDK.operationId]);
  const tl = str(a[TL.TRACELOOP_SPAN_KIND]);
  const requestType = str(a[TL.LLM_REQUEST_TYPE]);
  if ((op && CHAT_OPERATIONS.has(op)) || oi === OpenInferenceSpanKind.LLM || (aiOp && AI_SDK_MODEL_OPERATIONS.has(aiOp)) || (!op && (requestType === 'chat' || requestType === 'completion'))) return 'chat';
  if (op === GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL || oi === OpenInferenceSpanKind.TOOL || aiOp === AI_SDK.toolCallOperation || tl === TraceloopSpanKindValues.TOOL) return 'tool';
  if (op === GEN_AI_OPERATION_NAME_VALUE_INVOKE_AGENT || oi === OpenInferenceSpanKind.AGENT || (aiOp && AI_SDK_ROOT_OPERATIONS.has(aiOp)) || tl === TraceloopSpanKindValues.WORKFLOW || tl === TraceloopSpanKindValues.AGENT) return 'agent';
  return 'step';
}

/** The kind a step that is neither model nor tool is shown as: its convention's own word, else `custom`. */
export function stepKindOf(span: SpanRecord): string {
  const a = span.attributes;
  const oi = str(a[OI.OPENINFERENCE_SPAN_KIND]);
  if (oi) return oi.toLowerCase();
  const tl = str(a[TL.TRACELOOP_SPAN_KIND]);
  if (tl) return tl;
  const op = str(a[ATTR_GEN_AI_OPERATION_NAME]);
  if (op) return op;
  const aiOp = str(a[AI_SDK.operationId]);
  if (aiOp) return aiOp;
  return 'custom';
}

/** The span's own attributes plus, for content sent as an operation-details event, its messages. */
function withDetails(span: SpanRecord): AttrMap {
  const details = span.events.find((e) => e.name === EVENT_GEN_AI_CLIENT_INFERENCE_OPERATION_DETAILS || (e.name === 'log' && e.attributes['event.name'] === EVENT_GEN_AI_CLIENT_INFERENCE_OPERATION_DETAILS));
  return details ? { ...details.attributes, ...span.attributes } : span.attributes;
}

/** A model call as the import keeps it. Unknown is null. */
export interface ModelCallView {
  input: NormMessage[] | null;
  output: NormMessage[] | null;
  provider: string | null;
  requestModel: string | null;
  responseModel: string | null;
  finishReasons: string[];
  inputTokens: number | null;
  outputTokens: number | null;
  cachedTokens: number | null;
  /** gen_ai.response.time_to_first_chunk (seconds): a streamed call's time to its first chunk. */
  timeToFirstChunkS: number | null;
  invocationParameters: JsonValue | null;
}

function aiSdkOutput(a: AttrMap): NormMessage[] | null {
  const text = str(a[AI_SDK.responseText]);
  const calls = jsonAttr(a[AI_SDK.responseToolCalls]);
  const toolCalls: NormCall[] = Array.isArray(calls)
    ? calls
        .filter((c): c is { [k: string]: JsonValue } => typeof c === 'object' && c !== null && !Array.isArray(c))
        .map((c) => ({ toolUseId: typeof c.toolCallId === 'string' ? c.toolCallId : '', name: typeof c.toolName === 'string' ? c.toolName : '', arguments: (typeof c.input === 'string' ? jsonAttr(c.input) : c.input) ?? (typeof c.args === 'string' ? jsonAttr(c.args) : c.args) ?? {} }))
    : [];
  if (text === null && toolCalls.length === 0) return null;
  return [{ role: 'assistant', text, toolCalls, toolCallId: null }];
}

function finishReasonsOf(a: AttrMap, output: NormMessage[] | null): string[] {
  const v = a[ATTR_GEN_AI_RESPONSE_FINISH_REASONS];
  if (Array.isArray(v)) return v.filter((x): x is string => typeof x === 'string');
  const one = str(v) ?? firstStr(a, [OI.LLM_FINISH_REASON, AI_SDK.responseFinishReason]);
  if (one) return [one];
  return (output ?? []).map((m) => m.finishReason ?? null).filter((x): x is string => x !== null);
}

/** Invocation parameters: OpenInference's JSON, else the GenAI `gen_ai.request.*` and AI SDK `ai.settings.*` values. */
function invocationParametersOf(a: AttrMap): JsonValue | null {
  const oi = jsonAttr(a[OI.LLM_INVOCATION_PARAMETERS]);
  if (oi !== undefined) return oi;
  const params: Record<string, JsonValue> = {};
  for (const [k, v] of Object.entries(a)) {
    if (v === null) continue;
    if (k.startsWith('gen_ai.request.') && k !== ATTR_GEN_AI_REQUEST_MODEL) params[k.slice('gen_ai.request.'.length)] = v as JsonValue;
    else if (k.startsWith(AI_SDK.settingsPrefix)) params[k.slice(AI_SDK.settingsPrefix.length)] = v as JsonValue;
  }
  return Object.keys(params).length > 0 ? params : null;
}

export function modelCallView(span: SpanRecord): ModelCallView {
  const a = withDetails(span);
  const events = eventMessages(span.events);
  const input =
    messageList(a[ATTR_GEN_AI_INPUT_MESSAGES]) ??
    openInferenceMessages(a, OI.LLM_INPUT_MESSAGES) ??
    messageList(a[AI_SDK.promptMessages]) ??
    flattenedPromptMessages(a, ATTR_GEN_AI_PROMPT) ??
    events.input ??
    messageList(a[ATTR_GEN_AI_PROMPT]);
  const output =
    messageList(a[ATTR_GEN_AI_OUTPUT_MESSAGES]) ??
    openInferenceMessages(a, OI.LLM_OUTPUT_MESSAGES) ??
    aiSdkOutput(a) ??
    flattenedPromptMessages(a, ATTR_GEN_AI_COMPLETION) ??
    events.output ??
    messageList(a[ATTR_GEN_AI_COMPLETION]);
  return {
    input,
    output,
    provider: firstStr(a, [ATTR_GEN_AI_PROVIDER_NAME, ATTR_GEN_AI_SYSTEM_OLD, OI.LLM_PROVIDER, OI.LLM_SYSTEM, AI_SDK.modelProvider]) ?? langChainProvider(a),
    requestModel: firstStr(a, [ATTR_GEN_AI_REQUEST_MODEL, OI.LLM_REQUEST_MODEL_NAME, OI.LLM_MODEL_NAME, AI_SDK.modelId]),
    responseModel: firstStr(a, [ATTR_GEN_AI_RESPONSE_MODEL, OI.LLM_RESPONSE_MODEL_NAME, AI_SDK.responseModel, OI.LLM_MODEL_NAME]),
    finishReasons: finishReasonsOf(a, output),
    inputTokens: firstNum(a, [ATTR_GEN_AI_USAGE_INPUT_TOKENS, OI.LLM_TOKEN_COUNT_PROMPT, AI_SDK.inputTokens, AI_SDK.promptTokens, OPENLLMETRY_LEGACY.promptTokens, ATTR_GEN_AI_USAGE_PROMPT_TOKENS]),
    outputTokens: firstNum(a, [ATTR_GEN_AI_USAGE_OUTPUT_TOKENS, OI.LLM_TOKEN_COUNT_COMPLETION, AI_SDK.outputTokens, AI_SDK.completionTokens, OPENLLMETRY_LEGACY.completionTokens, ATTR_GEN_AI_USAGE_COMPLETION_TOKENS]),
    cachedTokens: firstNum(a, [ATTR_GEN_AI_USAGE_CACHE_READ_INPUT_TOKENS, TL.GEN_AI_USAGE_CACHE_READ_INPUT_TOKENS, OI.LLM_TOKEN_COUNT_PROMPT_DETAILS_CACHE_READ, AI_SDK.cachedInputTokens, AI_SDK.cacheReadTokens]),
    timeToFirstChunkS: firstNum(a, [ATTR_GEN_AI_RESPONSE_TIME_TO_FIRST_CHUNK]),
    invocationParameters: invocationParametersOf(a),
  };
}

/** A tool span as the import keeps it (fields the span does not carry are null). */
export interface ToolView {
  name: string | null;
  callId: string | null;
  arguments: JsonValue | undefined;
  result: JsonValue | undefined;
}

/** Like jsonAttr, but keeps a non-JSON string as the string itself (tool results, entity values). */
export const jsonOrText = (v: AttrValue | undefined): JsonValue | undefined => jsonAttr(v) ?? (typeof v === 'string' ? v : undefined);

/** Traceloop's entity input `{"args": [...], "kwargs": {...}}`: a single argument unwrapped. */
function traceloopInput(v: AttrValue | undefined): JsonValue | undefined {
  const parsed = jsonOrText(v);
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed) || !Array.isArray(parsed.args)) return parsed;
  const kwargs = parsed.kwargs;
  const noKwargs = kwargs === undefined || (typeof kwargs === 'object' && kwargs !== null && Object.keys(kwargs).length === 0);
  if (noKwargs && parsed.args.length === 1) return parsed.args[0];
  return parsed;
}

export function toolView(span: SpanRecord): ToolView {
  const a = span.attributes;
  const oiTool = str(a[OI.OPENINFERENCE_SPAN_KIND])?.toUpperCase() === OpenInferenceSpanKind.TOOL;
  const tlTool = str(a[TL.TRACELOOP_SPAN_KIND]) === TraceloopSpanKindValues.TOOL;
  return {
    name: firstStr(a, [ATTR_GEN_AI_TOOL_NAME, OI.TOOL_NAME, AI_SDK.toolCallName]) ?? (tlTool ? str(a[TL.TRACELOOP_ENTITY_NAME]) : null),
    callId: firstStr(a, [ATTR_GEN_AI_TOOL_CALL_ID, OI.TOOL_CALL_ID, AI_SDK.toolCallId]),
    arguments: jsonAttr(a[ATTR_GEN_AI_TOOL_CALL_ARGUMENTS]) ?? (oiTool ? jsonAttr(a[OI.INPUT_VALUE]) : undefined) ?? jsonAttr(a[AI_SDK.toolCallArgs]) ?? (tlTool ? traceloopInput(a[TL.TRACELOOP_ENTITY_INPUT]) : undefined),
    result: jsonOrText(a[ATTR_GEN_AI_TOOL_CALL_RESULT]) ?? jsonOrText(a[OI.OUTPUT_VALUE]) ?? jsonOrText(a[AI_SDK.toolCallResult]) ?? (tlTool ? jsonOrText(a[TL.TRACELOOP_ENTITY_OUTPUT]) : undefined),
  };
}

/** LangChain's `ls_provider` in the OpenInference `metadata` JSON (LangChain sets no llm.provider). */
function langChainProvider(a: AttrMap): string | null {
  const meta = jsonAttr(a[OI.METADATA]);
  return typeof meta === 'object' && meta !== null && !Array.isArray(meta) ? str(meta.ls_provider as AttrValue) : null;
}

/** What an agent (root) span says the run was asked and answered, in its convention's terms. */
export function agentIo(span: SpanRecord): { input: string | null; output: string | null; system: string | null } {
  const a = span.attributes;
  const prompt = jsonAttr(a[AI_SDK.prompt]);
  const promptObj = typeof prompt === 'object' && prompt !== null && !Array.isArray(prompt) ? prompt : null;
  const aiInput = promptObj ? (typeof promptObj.prompt === 'string' ? promptObj.prompt : null) ?? lastUser(messageList(promptObj.messages)) : null;
  const tlIn = traceloopInput(a[TL.TRACELOOP_ENTITY_INPUT]);
  const tlOut = jsonOrText(a[TL.TRACELOOP_ENTITY_OUTPUT]);
  return {
    input: valueText(a[OI.INPUT_VALUE], 'user') ?? aiInput ?? (typeof tlIn === 'string' ? tlIn : null),
    output: valueText(a[OI.OUTPUT_VALUE], 'assistant') ?? str(a[AI_SDK.responseText]) ?? (typeof tlOut === 'string' ? tlOut : null),
    system: promptObj && typeof promptObj.system === 'string' ? promptObj.system : null,
  };
}

function lastUser(messages: NormMessage[] | null): string | null {
  return lastOf(messages, 'user');
}

function lastOf(messages: NormMessage[] | null, role: 'user' | 'assistant'): string | null {
  return [...(messages ?? [])].reverse().find((m) => m.role === role && m.text !== null && m.text !== '')?.text ?? null;
}

/**
 * An OpenInference `input.value` / `output.value` as text: plain text as sent; a JSON message list
 * (OpenAI Agents) or `{messages: [...]}` (LangChain, LangGraph) gives its last message of the role;
 * other JSON stays as sent.
 */
function valueText(v: AttrValue | undefined, role: 'user' | 'assistant'): string | null {
  const text = str(v);
  if (text === null) return null;
  const parsed = jsonAttr(text);
  const list = Array.isArray(parsed) ? parsed : typeof parsed === 'object' && parsed !== null && Array.isArray(parsed.messages) ? parsed.messages : null;
  return (list && lastOf(messageList(list), role)) ?? text;
}

/** `session.id` / `user.id` in any convention's spelling (OpenInference, AI SDK metadata, OpenLLMetry association). */
export function sessionAndUser(spans: SpanRecord[]): { sessionId: string | null; userId: string | null } {
  const first = (keys: string[]) => spans.map((s) => firstStr(s.attributes, keys)).find((v) => v !== null) ?? null;
  const assoc = TL.TRACELOOP_ASSOCIATION_PROPERTIES;
  return {
    sessionId: first([OI.SESSION_ID, `${AI_SDK.metadataPrefix}sessionId`, `${assoc}.session_id`, `${assoc}.sessionId`]),
    userId: first([OI.USER_ID, `${AI_SDK.metadataPrefix}userId`, `${assoc}.user_id`, `${assoc}.userId`]),
  };
}

/** Where conventions put a trace's tags: Langfuse's trace attribute, OpenInference's `tag.tags`, the AI SDK's telemetry metadata. */
export const TAG_KEYS = ['langfuse.trace.tags', OI.TAG_TAGS, `${AI_SDK.metadataPrefix}tags`] as const;

/**
 * The tags of a trace: every span's tag attributes (a list, or a list sent as JSON text), in their
 * stored form (lib/eval/run-tags.ts), and each tag left out — too long, empty, past the limit — set
 * aside on the run, naming the first span that carried tags.
 */
export function traceTags(spans: readonly SpanRecord[]): { tags: string[]; setAside: SetAside[] } {
  const carrying = spans.filter((s) => TAG_KEYS.some((k) => s.attributes[k] !== undefined));
  if (carrying.length === 0) return { tags: [], setAside: [] };
  const { tags, left } = tagsFromValues(carrying.flatMap((s) => TAG_KEYS.map((k) => s.attributes[k])));
  const spanId = carrying[0]!.spanId;
  return { tags, setAside: left.map((l) => ({ spanId, name: l.tag, reason: 'invalid' as const, action: 'dropped' as const, detail: `tag ${l.why}` })) };
}
