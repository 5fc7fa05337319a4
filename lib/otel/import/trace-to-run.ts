/**
 * One trace's spans as a RunResult, whichever convention wrote them (conventions/span-view.ts:
 * OpenTelemetry GenAI with content in attributes, span events or log records; OpenInference;
 * the Vercel AI SDK; OpenLLMetry): every model call becomes a model turn with the messages it saw
 * (replay's "what the model saw"), every tool span a tool record of the step it follows, every
 * other span (chain, retriever, guardrail, custom) a step of its own kind with its attributes, and
 * the loop's transitions are derived from that order. Cost comes from config/prices.json. The
 * project's own `stockroom.*` attributes and events, when present, restore what the conventions do
 * not carry (termination, guards, exact order).
 */
import { createHash } from 'node:crypto';
import { callSignature } from '../../harness/loop/execute-call';
import type { JsonValue } from '../../harness/json';
import {
  GuardrailEventSchema,
  TERMINATION_REASONS,
  type CallTime,
  type CompactionEvent,
  type GuardrailEvent,
  type GuardEvent,
  type ModelInput,
  type ModelTurn,
  type RunResult,
  type SpanStep,
  type TerminationReason,
  type ToolRecord,
  type Transition,
  type TrajectoryStep,
} from '../../harness/types';
import {
  ATTR_ERROR_TYPE,
  ATTR_GEN_AI_CONVERSATION_ID,
  ATTR_GEN_AI_INPUT_MESSAGES,
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_OUTPUT_MESSAGES,
  ATTR_GEN_AI_REQUEST_MODEL,
  ATTR_GEN_AI_SYSTEM_INSTRUCTIONS,
  EVENTS,
  OPENINFERENCE,
  STOCKROOM,
  TOOL_ERROR_TYPES,
} from '../attributes';
import type { AttrMap, AttrValue, SpanRecord } from './span-record';
import { priceFor, usdAt, loadPrices, type Price } from '../../models/prices';
import { textOfRole, toConverse, type NormMessage } from './conventions/messages';
import { agentIo, kindOf as spanKindOf, modelCallView, sessionAndUser, stepKindOf, toolView, type ModelCallView } from './conventions/span-view';

/** Which convention a trace followed. */
export type TraceFormat = 'genai' | 'openinference' | 'ai-sdk' | 'openllmetry';

/** What each model call said beyond the turn itself (kept in the run's config: request/response model, parameters). */
export interface ModelCallDetail {
  step: number;
  provider: string | null;
  requestModel: string | null;
  responseModel: string | null;
  finishReasons: string[];
  cachedTokens: number | null;
  invocationParameters: JsonValue | null;
}

export interface ImportedTrace {
  traceId: string;
  format: TraceFormat;
  serviceName: string | null;
  datasetName: string | null;
  /** `session.id` (OpenInference, OpenLLMetry association) or the GenAI conversation id, when given. */
  sessionId: string | null;
  /** `user.id`: the traced application's end user, when given. */
  userId: string | null;
  modelCalls: ModelCallDetail[];
  run: RunResult;
}

/** Attribute prefixes only agent instrumentation writes (GenAI, OpenInference, AI SDK, OpenLLMetry, ours). */
const AGENT_PREFIXES = ['gen_ai.', 'llm.', 'openinference.', 'ai.', 'traceloop.', 'stockroom.'];

/** Whether a span comes from agent instrumentation (its trace is worth assembling). */
export function isAgentSpan(span: SpanRecord): boolean {
  return Object.keys(span.attributes).some((k) => AGENT_PREFIXES.some((p) => k.startsWith(p)));
}

export const IMPORTED_COST_NOTE = 'imported trace: cost was not recorded';

const str = (v: AttrValue | undefined): string | null => (typeof v === 'string' ? v : null);
const num = (v: AttrValue | undefined): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v) ? Number(v) : null);
const bool = (v: AttrValue | undefined): boolean | null => (typeof v === 'boolean' ? v : null);
const ms = (ns: bigint) => Number(ns / 1000n) / 1000;

/** Our own export: spans carrying `stockroom.*` (the exact values win over the conventions'). */
const isOwn = (span: SpanRecord) => STOCKROOM.step in span.attributes;

/** A JSON attribute (stringified JSON, or already structured); undefined when absent or unreadable. */
function jsonAttr(v: AttrValue | undefined): JsonValue | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') return v as JsonValue;
  try {
    return JSON.parse(v) as JsonValue;
  } catch {
    return undefined;
  }
}

/** Like jsonAttr, but keeps a non-JSON string as the string itself. */
const jsonOrText = (v: AttrValue | undefined): JsonValue | undefined => jsonAttr(v) ?? (typeof v === 'string' ? v : undefined);

type Call = ModelTurn['toolCalls'][number];

const assistantText = (messages: NormMessage[] | null) => textOfRole(messages, 'assistant');
const firstUserText = (messages: NormMessage[] | null) => (messages ?? []).find((m) => m.role === 'user' && m.text !== null)?.text ?? null;

/** Tool calls the model asked for: our own export's names, else the call's output messages. */
function requestedCalls(span: SpanRecord, view: ModelCallView): Call[] | null {
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
function spanTime(root: SpanRecord, span: SpanRecord): CallTime {
  return {
    startedAt: new Date(ms(span.startNs)).toISOString(),
    endedAt: new Date(ms(span.endNs)).toISOString(),
    startMs: ms(span.startNs - root.startNs),
    endMs: ms(span.endNs - root.startNs),
  };
}

function modelTurn(span: SpanRecord, view: ModelCallView, step: number, calls: Call[]): ModelTurn {
  const a = span.attributes;
  const inputTokens = Math.trunc(view.inputTokens ?? 0);
  const own = isOwn(span);
  const provider = own ? str(a[STOCKROOM.provider]) : view.provider;
  const finishReason = own ? str(a[STOCKROOM.finishReason]) : view.finishReasons.length > 0 ? view.finishReasons.join(', ') : null;
  return {
    kind: 'model_turn',
    step,
    text: assistantText(view.output),
    toolCalls: calls,
    stopReason: stopReasonOf(span, view, calls.length > 0),
    inputTokens,
    outputTokens: Math.trunc(view.outputTokens ?? 0),
    latencyMs: ms(span.endNs - span.startNs),
    contextTokensEstimate: Math.trunc(num(a[STOCKROOM.contextTokens]) ?? inputTokens),
    ...(provider !== null ? { provider } : {}),
    ...(finishReason !== null ? { finishReason } : {}),
    ...(view.cachedTokens !== null ? { cachedTokens: Math.trunc(view.cachedTokens) } : {}),
  };
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

function toolRecord(span: SpanRecord, step: number, requested: Call | undefined, views: ModelCallView[]): ToolRecord {
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
function syntheticTool(call: Call, step: number, answer: NormMessage): ToolRecord {
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

function spanStep(span: SpanRecord, step: number): SpanStep {
  const attributes: Record<string, JsonValue> = {};
  for (const [k, v] of Object.entries(span.attributes)) attributes[k] = v as JsonValue;
  return { kind: 'span', step, spanKind: stepKindOf(span), name: span.name, attributes, latencyMs: ms(span.endNs - span.startNs), isError: span.statusCode === 2 };
}

const byStart = (a: SpanRecord, b: SpanRecord) => (a.startNs < b.startNs ? -1 : a.startNs > b.startNs ? 1 : 0);

/** The root: the agent span nothing else in the trace parents, else the earliest parentless span. */
function rootOf(spans: SpanRecord[]): SpanRecord {
  const ids = new Set(spans.map((s) => s.spanId));
  const parentless = spans.filter((s) => s.parentSpanId === null || !ids.has(s.parentSpanId));
  return parentless.filter((s) => spanKindOf(s) === 'agent').sort(byStart)[0] ?? parentless.sort(byStart)[0] ?? [...spans].sort(byStart)[0]!;
}

function orderKey(span: SpanRecord, position: number): [number, bigint, number] {
  return [num(span.attributes[STOCKROOM.trajectoryIndex]) ?? Number.MAX_SAFE_INTEGER, span.startNs, position];
}

function compareKeys(a: [number, bigint, number], b: [number, bigint, number]): number {
  if (a[0] !== b[0]) return a[0] - b[0];
  if (a[1] !== b[1]) return a[1] < b[1] ? -1 : 1;
  return a[2] - b[2];
}

/** The loop's transitions for a trajectory rebuilt from spans (what the harness would have logged). */
export function deriveTransitions(trajectory: TrajectoryStep[], termination: TerminationReason): Transition[] {
  const transitions: Transition[] = [{ step: 0, from: 'PLAN', to: 'CALL_MODEL', reason: 'start' }];
  const turns = trajectory.filter((s): s is ModelTurn => s.kind === 'model_turn');
  const toolsPerStep = new Map<number, number>();
  for (const s of trajectory) if (s.kind === 'tool_call') toolsPerStep.set(s.step, (toolsPerStep.get(s.step) ?? 0) + 1);
  let state = 'CALL_MODEL' as Transition['from'];
  turns.forEach((turn, i) => {
    const tools = toolsPerStep.get(turn.step) ?? 0;
    if (tools === 0 && turn.toolCalls.length === 0) {
      if (termination === 'COMPLETED') transitions.push({ step: turn.step, from: 'CALL_MODEL', to: 'DONE', reason: `stop_reason:${turn.stopReason}` });
      state = 'DONE';
      return;
    }
    transitions.push({ step: turn.step, from: 'CALL_MODEL', to: 'EXECUTE_TOOLS', reason: `${turn.toolCalls.length || tools} tool call(s)` });
    transitions.push({ step: turn.step, from: 'EXECUTE_TOOLS', to: 'OBSERVE', reason: 'tool results appended' });
    state = 'OBSERVE';
    if (i < turns.length - 1 || termination === 'COMPLETED') {
      transitions.push({ step: turn.step, from: 'OBSERVE', to: 'CALL_MODEL', reason: 'observe → call model' });
      state = 'CALL_MODEL';
    }
  });
  if (termination !== 'COMPLETED' && state !== 'DONE') {
    const step = turns.at(-1)?.step ?? 0;
    transitions.push({ step, from: state, to: 'FAILED', reason: `imported:${termination}` });
  }
  return transitions;
}

function terminationOf(root: SpanRecord, trajectory: TrajectoryStep[]): TerminationReason {
  const own = str(root.attributes[STOCKROOM.terminationReason]);
  if (own && (TERMINATION_REASONS as readonly string[]).includes(own)) return own as TerminationReason;
  const errorType = str(root.attributes[ATTR_ERROR_TYPE]);
  if (errorType && (TERMINATION_REASONS as readonly string[]).includes(errorType)) return errorType as TerminationReason;
  if (root.statusCode !== 2) return 'COMPLETED';
  const last = trajectory.filter((s) => s.kind !== 'span').at(-1);
  return last?.kind === 'tool_call' && last.isError ? 'TOOL_ERROR' : 'MODEL_ERROR';
}

/** GenAI parts messages on a span (`gen_ai.input.messages` / `gen_ai.output.messages`), read like a model call's. */
const genAiText = (v: AttrValue | undefined, role: 'user' | 'assistant') => textOfRole(messageListOf(v), role);
function messageListOf(v: AttrValue | undefined): NormMessage[] | null {
  return modelCallView({ traceId: '', spanId: '', parentSpanId: null, name: '', kind: 0, startNs: 0n, endNs: 0n, attributes: { [ATTR_GEN_AI_INPUT_MESSAGES]: v ?? null }, events: [], statusCode: 0, statusMessage: '', serviceName: null }).input;
}

function queryOf(root: SpanRecord, rootIsCall: boolean, chats: ModelCallView[]): string {
  const own = str(root.attributes[STOCKROOM.query]);
  if (own) return own;
  const fromRoot = genAiText(root.attributes[ATTR_GEN_AI_INPUT_MESSAGES], 'user') ?? (rootIsCall ? null : agentIo(root).input);
  if (fromRoot) return fromRoot;
  return firstUserText(chats[0]?.input ?? null) ?? root.name;
}

/** `gen_ai.system_instructions` (a list of parts, or plain text) as one string. */
function systemPromptOf(v: AttrValue | undefined): string | null {
  const parsed = jsonOrText(v);
  if (typeof parsed === 'string') return parsed;
  if (!Array.isArray(parsed)) return null;
  return parsed.map((p) => (typeof p === 'object' && p !== null && !Array.isArray(p) && typeof p.content === 'string' ? p.content : '')).join('\n');
}

/** Converse-shaped messages a chat span captured (our own export's content), else undefined. */
function converseMessages(span: SpanRecord): JsonValue[] | undefined {
  const parsed = jsonAttr(span.attributes[ATTR_GEN_AI_INPUT_MESSAGES]);
  if (!Array.isArray(parsed)) return undefined;
  const converse = parsed.every((m) => typeof m === 'object' && m !== null && !Array.isArray(m) && Array.isArray((m as { content?: unknown }).content));
  return converse ? parsed : undefined;
}

function rootEvents(root: SpanRecord): { entries: Array<[number, GuardEvent | CompactionEvent | GuardrailEvent]>; transitions: Transition[] | null } {
  const entries: Array<[number, GuardEvent | CompactionEvent | GuardrailEvent]> = [];
  const transitions: Array<[number, Transition]> = [];
  for (const e of root.events) {
    const a: AttrMap = e.attributes;
    const step = Math.trunc(num(a[STOCKROOM.step]) ?? 0);
    const index = num(a[STOCKROOM.trajectoryIndex]) ?? Number.MAX_SAFE_INTEGER;
    if (e.name === EVENTS.guardrail) {
      const raw = jsonAttr(a['stockroom.guardrail.event']);
      const parsed = raw === undefined ? null : GuardrailEventSchema.safeParse(raw);
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

function formatOf(spans: SpanRecord[]): TraceFormat {
  const has = (prefix: string) => spans.some((s) => Object.keys(s.attributes).some((k) => k.startsWith(prefix)));
  if (has('ai.operationId')) return 'ai-sdk';
  if (has('traceloop.') || has('gen_ai.prompt.') || has('llm.usage.')) return 'openllmetry';
  if (has(OPENINFERENCE.spanKind) && !has(ATTR_GEN_AI_OPERATION_NAME)) return 'openinference';
  return 'genai';
}

/** A provider's name as the price table spells it (`openai.chat` → `openai`, `azure.ai.openai` → `openai`). */
function priceProvider(provider: string | null): string | null {
  if (provider === null) return null;
  const p = provider.toLowerCase();
  if (p.includes('openai')) return 'openai';
  if (p.includes('anthropic')) return 'anthropic';
  if (p.includes('bedrock')) return 'bedrock';
  return p.split('.')[0] ?? p;
}

function priceOf(view: ModelCallView): Price | null {
  const provider = priceProvider(view.provider);
  if (provider === null) return null;
  for (const model of [view.responseModel, view.requestModel]) {
    if (!model) continue;
    const price = priceFor(`${provider}:${model}`) ?? priceFor(`${provider}:${model.replace(/-\d{4}-\d{2}-\d{2}$/, '')}`);
    if (price) return price;
  }
  return null;
}

/** The run's cost from the price table: known only when every model call's model has a price. */
function costOf(views: ModelCallView[], turns: ModelTurn[]): RunResult['costEstimate'] {
  if (views.length === 0) return { usd: null, note: IMPORTED_COST_NOTE, known: false };
  let usd = 0;
  const missing = new Set<string>();
  views.forEach((v, i) => {
    const price = priceOf(v);
    const turn = turns[i];
    if (!price || !turn) {
      missing.add(`${v.provider ?? 'unknown provider'}:${v.responseModel ?? v.requestModel ?? 'unknown model'}`);
      return;
    }
    usd += usdAt(price, { inputTokens: turn.inputTokens, outputTokens: turn.outputTokens, cachedTokens: turn.cachedTokens ?? 0 });
  });
  const version = loadPrices().version;
  if (missing.size > 0) return { usd: null, note: `no price for ${[...missing].join(', ')} in config/prices.json (version ${version}): cost unknown`, known: false };
  return { usd, note: `imported trace priced from its tokens with config/prices.json (version ${version})`, known: true };
}

/**
 * The run one trace describes, or null when the trace has no model or tool spans (not an agent
 * trace: an HTTP request's spans, say, or one whose model calls have not arrived yet).
 */
export function traceToRun(spans: SpanRecord[]): ImportedTrace | null {
  if (spans.length === 0) return null;
  const root = rootOf(spans);
  const rootKind = spanKindOf(root);
  const ordered = spans
    .map((span, position) => ({ span, key: orderKey(span, position), kind: spanKindOf(span) }))
    .filter((s) => s.span !== root || s.kind === 'chat' || s.kind === 'tool')
    .sort((a, b) => compareKeys(a.key, b.key));
  if (!ordered.some((s) => s.kind === 'chat' || s.kind === 'tool')) return null;
  const format = formatOf(spans);
  const views = new Map<SpanRecord, ModelCallView>();
  for (const { span, kind } of ordered) if (kind === 'chat') views.set(span, modelCallView(span));
  const allViews = [...views.values()];

  const entries: Array<[number, TrajectoryStep]> = [];
  const chatViews: ModelCallView[] = [];
  const chatSpans: SpanRecord[] = [];
  const modelInputs: ModelInput[] = [];
  const details: ModelCallDetail[] = [];
  let step = 0;
  let pending: Call[] = [];
  let currentTurn: ModelTurn | null = null;
  ordered.forEach(({ span, kind, key }, position) => {
    const sortIndex = key[0] === Number.MAX_SAFE_INTEGER ? position : key[0];
    if (kind === 'chat') {
      const view = views.get(span)!;
      // Calls the last turn asked for that no tool span recorded, answered in this call's input:
      // the tool ran outside any instrumented span (a bare model-call instrumentation).
      for (const call of pending) {
        const answer = (view.input ?? []).find((m) => m.role === 'tool' && m.toolCallId === call.toolUseId);
        if (answer) entries.push([sortIndex - 0.5, syntheticTool(call, step, answer)]);
      }
      pending = [];
      step = Math.trunc(num(span.attributes[STOCKROOM.step]) ?? step + 1);
      chatViews.push(view);
      chatSpans.push(span);
      const calls = requestedCalls(span, view);
      currentTurn = { ...modelTurn(span, view, step, calls ?? []), time: spanTime(root, span) };
      pending = [...(calls ?? [])];
      entries.push([sortIndex, currentTurn]);
      const messages = converseMessages(span) ?? (view.input ? toConverse(view.input) : undefined);
      if (messages) modelInputs.push({ step, messages });
      details.push({ step, provider: view.provider, requestModel: view.requestModel, responseModel: view.responseModel, finishReasons: view.finishReasons, cachedTokens: view.cachedTokens, invocationParameters: view.invocationParameters });
      return;
    }
    if (kind !== 'tool') {
      entries.push([sortIndex, spanStep(span, Math.max(step, 1))]);
      return;
    }
    const toolStep = Math.trunc(num(span.attributes[STOCKROOM.step]) ?? Math.max(step, 1));
    const id = toolView(span).callId;
    const matchAt = pending.findIndex((c) => (id !== null ? c.toolUseId === id : true));
    const requested = matchAt >= 0 ? pending.splice(matchAt, 1)[0] : undefined;
    const record: ToolRecord = { ...toolRecord(span, toolStep, requested, allViews), time: spanTime(root, span) };
    // A model turn whose calls the trace did not list gets them from the tool spans that followed it.
    const turn = currentTurn as ModelTurn | null;
    if (turn && turn.step === toolStep && !requested && !turn.toolCalls.some((c) => c.toolUseId === record.toolUseId)) {
      turn.toolCalls.push({ toolUseId: record.toolUseId, name: record.name, arguments: record.arguments });
      if (turn.stopReason === 'end_turn' && !str(chatSpans.at(-1)?.attributes[STOCKROOM.stopReason])) turn.stopReason = 'tool_use';
    }
    entries.push([sortIndex, record]);
  });
  const events = rootEvents(root);
  const trajectory = [...entries, ...events.entries].sort((a, b) => a[0] - b[0]).map(([, s]) => s);
  const terminationReason = terminationOf(root, trajectory);
  const turns = trajectory.filter((s): s is ModelTurn => s.kind === 'model_turn');
  const perCall = turns.map((t) => ({ inputTokens: t.inputTokens, outputTokens: t.outputTokens, ...(t.cachedTokens !== undefined ? { cachedTokens: t.cachedTokens } : {}) }));
  const inputTokens = perCall.reduce((n, c) => n + c.inputTokens, 0);
  const outputTokens = perCall.reduce((n, c) => n + c.outputTokens, 0);
  const cachedKnown = turns.some((t) => t.cachedTokens !== undefined);
  const cachedTokens = turns.reduce((n, t) => n + (t.cachedTokens ?? 0), 0);
  const a = root.attributes;
  const rootIsCall = rootKind === 'chat' || rootKind === 'tool';
  const lastText = [...turns].reverse().find((t) => t.text !== null)?.text ?? '';
  const io = rootIsCall ? null : agentIo(root);
  const finalAnswer = genAiText(a[ATTR_GEN_AI_OUTPUT_MESSAGES], 'assistant') ?? io?.output ?? lastText;
  const mode = str(a[STOCKROOM.mode]);
  const weaknesses = Array.isArray(a[STOCKROOM.weaknesses]) ? (a[STOCKROOM.weaknesses] as AttrValue[]).filter((w): w is string => typeof w === 'string') : [];
  const modelId = str(a[ATTR_GEN_AI_REQUEST_MODEL]) ?? chatViews.map((v) => v.requestModel ?? v.responseModel).find((m) => m !== null) ?? 'unknown';
  const systemPrompt =
    systemPromptOf(a[ATTR_GEN_AI_SYSTEM_INSTRUCTIONS]) ??
    io?.system ??
    chatSpans.map((s) => systemPromptOf(s.attributes[ATTR_GEN_AI_SYSTEM_INSTRUCTIONS])).find((p) => p !== null) ??
    chatViews.map((v) => textOfRole(v.input, 'system')).find((p) => p !== null) ??
    '';
  const own = isOwn(root) || str(a[STOCKROOM.runId]) !== null;
  const run: RunResult = {
    runId: str(a[STOCKROOM.runId]) ?? str(a[ATTR_GEN_AI_CONVERSATION_ID]) ?? root.traceId,
    caseId: str(a[STOCKROOM.caseId]),
    query: queryOf(root, rootIsCall, chatViews),
    finalAnswer,
    terminationReason,
    trajectory,
    transitions: events.transitions ?? deriveTransitions(trajectory, terminationReason),
    usage: { modelCalls: turns.length, inputTokens, outputTokens, totalTokens: inputTokens + outputTokens, ...(cachedKnown ? { cachedTokens } : {}), perCall },
    costEstimate: own ? { usd: null, note: IMPORTED_COST_NOTE, known: false } : costOf(chatViews, turns),
    steps: Math.trunc(num(a[STOCKROOM.steps]) ?? turns.length),
    startedAt: new Date(ms(root.startNs)).toISOString(),
    durationMs: ms(root.endNs - root.startNs),
    mode: mode === 'mock' || mode === 'live' ? mode : 'live',
    modelId,
    weaknesses,
    systemPrompt,
    toolSpecs: [],
    modelInputs: modelInputs.length === turns.length ? modelInputs : [],
    status: 'finished',
    checkpoint: null,
  };
  const firstOf = (key: string) => spans.map((s) => str(s.attributes[key])).find((v) => v !== null) ?? null;
  const ids = sessionAndUser(spans);
  const sessionId = ids.sessionId ?? firstOf(ATTR_GEN_AI_CONVERSATION_ID);
  return { traceId: root.traceId, format, serviceName: root.serviceName, datasetName: str(a[STOCKROOM.datasetName]), sessionId, userId: ids.userId, modelCalls: details, run };
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
