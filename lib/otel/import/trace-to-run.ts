/**
 * One trace's spans as a RunResult. Works on traces following the GenAI semantic conventions
 * (`gen_ai.operation.name` chat / execute_tool / invoke_agent) and on OpenInference traces
 * (`openinference.span.kind` LLM / TOOL / AGENT / CHAIN, `llm.*`, `tool.*`): every model call
 * becomes a model turn, every tool span a tool record of the step it follows, and the loop's
 * transitions are derived from that order. The project's own `stockroom.*` attributes and events,
 * when present, restore what the conventions do not carry (termination, guards, exact order).
 */
import { callSignature } from '../../harness/loop/execute-call';
import type { JsonValue } from '../../harness/json';
import {
  TERMINATION_REASONS,
  type CompactionEvent,
  type GuardEvent,
  type ModelInput,
  type ModelTurn,
  type RunResult,
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
  ATTR_GEN_AI_RESPONSE_FINISH_REASONS,
  ATTR_GEN_AI_RESPONSE_MODEL,
  ATTR_GEN_AI_SYSTEM_INSTRUCTIONS,
  ATTR_GEN_AI_TOOL_CALL_ARGUMENTS,
  ATTR_GEN_AI_TOOL_CALL_ID,
  ATTR_GEN_AI_TOOL_CALL_RESULT,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_GEN_AI_PROVIDER_NAME,
  ATTR_GEN_AI_SYSTEM_OLD,
  ATTR_GEN_AI_USAGE_CACHE_READ_INPUT_TOKENS,
  ATTR_GEN_AI_USAGE_INPUT_TOKENS,
  ATTR_GEN_AI_USAGE_OUTPUT_TOKENS,
  EVENTS,
  OPENINFERENCE,
  STOCKROOM,
  TOOL_ERROR_TYPES,
} from '../attributes';
import type { AttrMap, AttrValue, SpanRecord } from './span-record';

/** Which convention a trace followed. */
export type TraceFormat = 'genai' | 'openinference';

export interface ImportedTrace {
  traceId: string;
  format: TraceFormat;
  serviceName: string | null;
  datasetName: string | null;
  /** `session.id` (OpenInference, OpenLLMetry association) or the GenAI conversation id, when given. */
  sessionId: string | null;
  /** `user.id`: the traced application's end user, when given. */
  userId: string | null;
  run: RunResult;
}

/** Attribute prefixes only agent instrumentation writes (GenAI, OpenInference, AI SDK, OpenLLMetry, ours). */
const AGENT_PREFIXES = ['gen_ai.', 'llm.', 'openinference.', 'ai.', 'traceloop.', 'stockroom.'];

/** Whether a span comes from agent instrumentation (its trace is worth assembling). */
export function isAgentSpan(span: SpanRecord): boolean {
  return Object.keys(span.attributes).some((k) => AGENT_PREFIXES.some((p) => k.startsWith(p)));
}

export const IMPORTED_COST_NOTE = 'imported trace: cost was not recorded';

const CHAT_OPERATIONS = new Set(['chat', 'text_completion', 'generate_content']);

const str = (v: AttrValue | undefined): string | null => (typeof v === 'string' ? v : null);
const num = (v: AttrValue | undefined): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v) ? Number(v) : null);
const bool = (v: AttrValue | undefined): boolean | null => (typeof v === 'boolean' ? v : null);
const ms = (ns: bigint) => Number(ns / 1000n) / 1000;

function kindOf(span: SpanRecord): 'chat' | 'tool' | 'agent' | null {
  const op = str(span.attributes[ATTR_GEN_AI_OPERATION_NAME]);
  const oi = str(span.attributes[OPENINFERENCE.spanKind])?.toUpperCase();
  if ((op && CHAT_OPERATIONS.has(op)) || oi === 'LLM') return 'chat';
  if (op === 'execute_tool' || oi === 'TOOL') return 'tool';
  if (op === 'invoke_agent' || oi === 'AGENT' || oi === 'CHAIN') return 'agent';
  return null;
}

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

/** Like jsonAttr, but keeps a non-JSON string as the string itself (tool results, OpenInference values). */
const jsonOrText = (v: AttrValue | undefined): JsonValue | undefined => jsonAttr(v) ?? (typeof v === 'string' ? v : undefined);

type Part = { type?: string; content?: unknown; id?: unknown; name?: unknown; arguments?: unknown };
type GenAiMessage = { role?: string; parts?: Part[] };

function genAiMessages(v: AttrValue | undefined): GenAiMessage[] {
  const parsed = jsonAttr(v);
  return Array.isArray(parsed) ? (parsed.filter((m) => typeof m === 'object' && m !== null) as GenAiMessage[]) : [];
}

function textOf(messages: GenAiMessage[], role: string): string | null {
  const texts = messages
    .filter((m) => m.role === role)
    .flatMap((m) => (Array.isArray(m.parts) ? m.parts : []))
    .filter((p) => p.type === 'text' && typeof p.content === 'string')
    .map((p) => p.content as string);
  return texts.length > 0 ? texts.join('\n') : null;
}

type Call = ModelTurn['toolCalls'][number];

/** Tool calls the model asked for, from GenAI output messages or OpenInference's flattened keys. */
function requestedCalls(span: SpanRecord): Call[] | null {
  const out = genAiMessages(span.attributes[ATTR_GEN_AI_OUTPUT_MESSAGES]);
  if (out.length > 0) {
    return out
      .flatMap((m) => (Array.isArray(m.parts) ? m.parts : []))
      .filter((p) => p.type === 'tool_call' && typeof p.name === 'string')
      .map((p) => ({ toolUseId: String(p.id ?? ''), name: p.name as string, arguments: (jsonAttr(p.arguments as AttrValue) ?? {}) as JsonValue }));
  }
  const names = span.attributes[STOCKROOM.requestedToolNames];
  const ids = span.attributes[STOCKROOM.requestedToolIds];
  if (Array.isArray(names)) {
    return names.map((name, i) => ({ toolUseId: String((Array.isArray(ids) ? ids[i] : null) ?? ''), name: String(name), arguments: {} }));
  }
  const calls: Call[] = [];
  for (let k = 0; ; k++) {
    const prefix = `${OPENINFERENCE.outputMessagesPrefix}0.message.tool_calls.${k}.tool_call.`;
    const name = str(span.attributes[`${prefix}function.name`]);
    if (name === null) break;
    calls.push({ toolUseId: str(span.attributes[`${prefix}id`]) ?? '', name, arguments: (jsonAttr(span.attributes[`${prefix}function.arguments`]) ?? {}) as JsonValue });
  }
  return calls.length > 0 ? calls : null;
}

function outputText(span: SpanRecord): string | null {
  const out = genAiMessages(span.attributes[ATTR_GEN_AI_OUTPUT_MESSAGES]);
  if (out.length > 0) return textOf(out, 'assistant');
  return str(span.attributes[`${OPENINFERENCE.outputMessagesPrefix}0.message.content`]);
}

function stopReasonOf(span: SpanRecord, hasCalls: boolean): string {
  const own = str(span.attributes[STOCKROOM.stopReason]);
  if (own) return own;
  const reasons = span.attributes[ATTR_GEN_AI_RESPONSE_FINISH_REASONS];
  const first = Array.isArray(reasons) ? str(reasons[0]) : str(reasons);
  switch (first) {
    case 'stop':
    case 'end_turn':
      return 'end_turn';
    case 'tool_call':
    case 'tool_calls':
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

function modelTurn(span: SpanRecord, step: number, calls: Call[]): ModelTurn {
  const a = span.attributes;
  const inputTokens = Math.trunc(num(a[ATTR_GEN_AI_USAGE_INPUT_TOKENS]) ?? num(a[OPENINFERENCE.promptTokens]) ?? 0);
  return {
    kind: 'model_turn',
    step,
    text: outputText(span),
    toolCalls: calls,
    stopReason: stopReasonOf(span, calls.length > 0),
    inputTokens,
    outputTokens: Math.trunc(num(a[ATTR_GEN_AI_USAGE_OUTPUT_TOKENS]) ?? num(a[OPENINFERENCE.completionTokens]) ?? 0),
    latencyMs: ms(span.endNs - span.startNs),
    contextTokensEstimate: Math.trunc(num(a[STOCKROOM.contextTokens]) ?? inputTokens),
    ...liveFields(span),
  };
}

/** Provider, raw finish reason and cached tokens: our own export's exact values, else the conventions'. */
function liveFields(span: SpanRecord): Pick<ModelTurn, 'provider' | 'finishReason' | 'cachedTokens'> {
  const a = span.attributes;
  const ours = STOCKROOM.step in a;
  const provider = ours ? str(a[STOCKROOM.provider]) : (str(a[ATTR_GEN_AI_PROVIDER_NAME]) ?? str(a[ATTR_GEN_AI_SYSTEM_OLD]) ?? str(a[OPENINFERENCE.provider]));
  const reasons = a[ATTR_GEN_AI_RESPONSE_FINISH_REASONS];
  const finishReason = ours ? str(a[STOCKROOM.finishReason]) : Array.isArray(reasons) ? str(reasons[0]) : str(reasons);
  const cached = num(a[ATTR_GEN_AI_USAGE_CACHE_READ_INPUT_TOKENS]);
  return {
    ...(provider !== null ? { provider } : {}),
    ...(finishReason !== null ? { finishReason } : {}),
    ...(cached !== null ? { cachedTokens: Math.trunc(cached) } : {}),
  };
}

function toolRecord(span: SpanRecord, step: number, requested: Call | undefined): ToolRecord {
  const a = span.attributes;
  const name = str(a[ATTR_GEN_AI_TOOL_NAME]) ?? str(a[OPENINFERENCE.toolName]) ?? requested?.name ?? span.name.replace(/^execute_tool\s+/, '');
  const args = (jsonAttr(a[ATTR_GEN_AI_TOOL_CALL_ARGUMENTS]) ?? (kindOf(span) === 'tool' ? jsonAttr(a[OPENINFERENCE.inputValue]) : undefined) ?? requested?.arguments ?? {}) as JsonValue;
  const result = jsonOrText(a[ATTR_GEN_AI_TOOL_CALL_RESULT]) ?? jsonOrText(a[OPENINFERENCE.outputValue]) ?? null;
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
    toolUseId: str(a[ATTR_GEN_AI_TOOL_CALL_ID]) ?? str(a[OPENINFERENCE.toolCallId]) ?? requested?.toolUseId ?? span.spanId,
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

/** The root: the agent span nothing else in the trace parents, else the earliest parentless span. */
function rootOf(spans: SpanRecord[]): SpanRecord {
  const ids = new Set(spans.map((s) => s.spanId));
  const parentless = spans.filter((s) => s.parentSpanId === null || !ids.has(s.parentSpanId));
  const byStart = (a: SpanRecord, b: SpanRecord) => (a.startNs < b.startNs ? -1 : a.startNs > b.startNs ? 1 : 0);
  return parentless.filter((s) => kindOf(s) === 'agent').sort(byStart)[0] ?? parentless.sort(byStart)[0] ?? [...spans].sort(byStart)[0]!;
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
  const last = trajectory.at(-1);
  return last?.kind === 'tool_call' && last.isError ? 'TOOL_ERROR' : 'MODEL_ERROR';
}

function queryOf(root: SpanRecord, chats: SpanRecord[]): string {
  const own = str(root.attributes[STOCKROOM.query]);
  if (own) return own;
  const fromRoot = textOf(genAiMessages(root.attributes[ATTR_GEN_AI_INPUT_MESSAGES]), 'user') ?? str(root.attributes[OPENINFERENCE.inputValue]);
  if (fromRoot) return fromRoot;
  const first = chats[0];
  if (first) {
    const fromChat = textOf(genAiMessages(first.attributes[ATTR_GEN_AI_INPUT_MESSAGES]), 'user') ?? str(first.attributes['llm.input_messages.0.message.content']);
    if (fromChat) return fromChat;
  }
  return root.name;
}

/** `gen_ai.system_instructions` (a list of parts, or plain text) as one string. */
function systemPromptOf(v: AttrValue | undefined): string {
  const parsed = jsonOrText(v);
  if (typeof parsed === 'string') return parsed;
  if (!Array.isArray(parsed)) return '';
  return parsed.map((p) => (typeof p === 'object' && p !== null && !Array.isArray(p) && typeof p.content === 'string' ? p.content : '')).join('\n');
}

/** Converse-shaped messages a chat span captured (our own export's content), else undefined. */
function converseMessages(span: SpanRecord): JsonValue[] | undefined {
  const parsed = jsonAttr(span.attributes[ATTR_GEN_AI_INPUT_MESSAGES]);
  if (!Array.isArray(parsed)) return undefined;
  const converse = parsed.every((m) => typeof m === 'object' && m !== null && !Array.isArray(m) && Array.isArray((m as { content?: unknown }).content));
  return converse ? parsed : undefined;
}

function rootEvents(root: SpanRecord): { entries: Array<[number, GuardEvent | CompactionEvent]>; transitions: Transition[] | null } {
  const entries: Array<[number, GuardEvent | CompactionEvent]> = [];
  const transitions: Array<[number, Transition]> = [];
  for (const e of root.events) {
    const a: AttrMap = e.attributes;
    const step = Math.trunc(num(a[STOCKROOM.step]) ?? 0);
    const index = num(a[STOCKROOM.trajectoryIndex]) ?? Number.MAX_SAFE_INTEGER;
    if (e.name === EVENTS.guard) {
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

/**
 * The run one trace describes, or null when the trace has no model or tool spans (not an agent
 * trace: an HTTP request's spans, say).
 */
export function traceToRun(spans: SpanRecord[]): ImportedTrace | null {
  const ordered = spans
    .map((span, position) => ({ span, key: orderKey(span, position), kind: kindOf(span) }))
    .filter((s) => s.kind === 'chat' || s.kind === 'tool')
    .sort((a, b) => compareKeys(a.key, b.key));
  if (ordered.length === 0) return null;
  const root = rootOf(spans);
  const format: TraceFormat = spans.some((s) => OPENINFERENCE.spanKind in s.attributes) && !spans.some((s) => ATTR_GEN_AI_OPERATION_NAME in s.attributes) ? 'openinference' : 'genai';

  const entries: Array<[number, TrajectoryStep]> = [];
  const chats: SpanRecord[] = [];
  const modelInputs: ModelInput[] = [];
  let step = 0;
  let pending: Call[] = [];
  let currentTurn: ModelTurn | null = null;
  ordered.forEach(({ span, kind, key }, position) => {
    const sortIndex = key[0] === Number.MAX_SAFE_INTEGER ? position : key[0];
    if (kind === 'chat') {
      step = Math.trunc(num(span.attributes[STOCKROOM.step]) ?? step + 1);
      chats.push(span);
      const calls = requestedCalls(span);
      currentTurn = modelTurn(span, step, calls ?? []);
      pending = [...(calls ?? [])];
      entries.push([sortIndex, currentTurn]);
      const messages = converseMessages(span);
      if (messages) modelInputs.push({ step, messages });
      return;
    }
    const toolStep = Math.trunc(num(span.attributes[STOCKROOM.step]) ?? Math.max(step, 1));
    const id = str(span.attributes[ATTR_GEN_AI_TOOL_CALL_ID]) ?? str(span.attributes[OPENINFERENCE.toolCallId]);
    const matchAt = pending.findIndex((c) => (id !== null ? c.toolUseId === id : true));
    const requested = matchAt >= 0 ? pending.splice(matchAt, 1)[0] : undefined;
    const record = toolRecord(span, toolStep, requested);
    // A model turn whose calls the trace did not list gets them from the tool spans that followed it.
    const turn = currentTurn as ModelTurn | null;
    if (turn && turn.step === toolStep && !requested && !turn.toolCalls.some((c) => c.toolUseId === record.toolUseId)) {
      turn.toolCalls.push({ toolUseId: record.toolUseId, name: record.name, arguments: record.arguments });
      if (turn.stopReason === 'end_turn' && !str(chats.at(-1)?.attributes[STOCKROOM.stopReason])) turn.stopReason = 'tool_use';
    }
    entries.push([sortIndex, record]);
  });
  const events = rootEvents(root);
  const trajectory = [...entries, ...events.entries].sort((a, b) => a[0] - b[0]).map(([, s]) => s);
  const terminationReason = terminationOf(root, trajectory);
  const turns = trajectory.filter((s): s is ModelTurn => s.kind === 'model_turn');
  const perCall = turns.map((t) => ({ inputTokens: t.inputTokens, outputTokens: t.outputTokens }));
  const inputTokens = perCall.reduce((n, c) => n + c.inputTokens, 0);
  const outputTokens = perCall.reduce((n, c) => n + c.outputTokens, 0);
  const a = root.attributes;
  const lastText = [...turns].reverse().find((t) => t.text !== null)?.text ?? '';
  const finalAnswer =
    textOf(genAiMessages(a[ATTR_GEN_AI_OUTPUT_MESSAGES]), 'assistant') ?? (kindOf(root) === 'agent' ? str(a[OPENINFERENCE.outputValue]) : null) ?? lastText;
  const mode = str(a[STOCKROOM.mode]);
  const weaknesses = Array.isArray(a[STOCKROOM.weaknesses]) ? (a[STOCKROOM.weaknesses] as AttrValue[]).filter((w): w is string => typeof w === 'string') : [];
  const modelId =
    str(a[ATTR_GEN_AI_REQUEST_MODEL]) ??
    chats.map((c) => str(c.attributes[ATTR_GEN_AI_REQUEST_MODEL]) ?? str(c.attributes[ATTR_GEN_AI_RESPONSE_MODEL]) ?? str(c.attributes[OPENINFERENCE.modelName])).find((m) => m !== null) ??
    'unknown';
  const systemPrompt = systemPromptOf(a[ATTR_GEN_AI_SYSTEM_INSTRUCTIONS]);
  const run: RunResult = {
    runId: str(a[STOCKROOM.runId]) ?? str(a[ATTR_GEN_AI_CONVERSATION_ID]) ?? root.traceId,
    caseId: str(a[STOCKROOM.caseId]),
    query: queryOf(root, chats),
    finalAnswer,
    terminationReason,
    trajectory,
    transitions: events.transitions ?? deriveTransitions(trajectory, terminationReason),
    usage: { modelCalls: turns.length, inputTokens, outputTokens, totalTokens: inputTokens + outputTokens, perCall },
    costEstimate: { usd: 0, note: IMPORTED_COST_NOTE },
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
  const sessionId = firstOf('session.id') ?? firstOf(ATTR_GEN_AI_CONVERSATION_ID);
  const userId = firstOf('user.id');
  return { traceId: root.traceId, format, serviceName: root.serviceName, datasetName: str(a[STOCKROOM.datasetName]), sessionId, userId, run };
}
