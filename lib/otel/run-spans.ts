/**
 * A finished RunResult as a tree of span plans following the GenAI semantic conventions: one
 * `invoke_agent` root, a `chat` span per model call, an `execute_tool` span per tool call, and
 * transitions, guard trips, compaction and approval decisions as events. Pure: the exporter turns
 * plans into SDK spans, tests read them directly. Each span starts and ends when the loop recorded
 * (callTimesOf: the run's start plus the monotonic offsets), so gaps stay gaps and calls that ran at
 * once overlap; a run recorded before times were is laid out as before, call after call from the
 * run's start by each call's latency (its children's times were never known).
 */
import { callTimesOf, timeAt } from '../harness';
import type { JsonValue } from '../harness';
import type { CallTime, ModelTurn, RunResult, ToolRecord } from '../harness';
import {
  ATTR_ERROR_TYPE,
  ATTR_GEN_AI_AGENT_NAME,
  ATTR_GEN_AI_CONVERSATION_ID,
  ATTR_GEN_AI_INPUT_MESSAGES,
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_OUTPUT_MESSAGES,
  ATTR_GEN_AI_PROVIDER_NAME,
  ATTR_GEN_AI_REQUEST_MODEL,
  ATTR_GEN_AI_RESPONSE_FINISH_REASONS,
  ATTR_GEN_AI_RESPONSE_MODEL,
  ATTR_GEN_AI_RESPONSE_TIME_TO_FIRST_CHUNK,
  ATTR_GEN_AI_SYSTEM_INSTRUCTIONS,
  ATTR_GEN_AI_TOOL_CALL_ARGUMENTS,
  ATTR_GEN_AI_TOOL_CALL_ID,
  ATTR_GEN_AI_TOOL_CALL_RESULT,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_GEN_AI_TOOL_TYPE,
  ATTR_GEN_AI_USAGE_CACHE_READ_INPUT_TOKENS,
  ATTR_GEN_AI_USAGE_INPUT_TOKENS,
  ATTR_GEN_AI_USAGE_OUTPUT_TOKENS,
  EVENTS,
  GEN_AI_OPERATION_NAME_VALUE_CHAT,
  GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL,
  GEN_AI_OPERATION_NAME_VALUE_INVOKE_AGENT,
  STOCKROOM,
  TOOL_ERROR_TYPES,
} from './attributes';
import { redactSecrets } from '../security';

export type AttributeValue = string | number | boolean | string[];
export type Attributes = Record<string, AttributeValue>;

export interface SpanEventPlan {
  name: string;
  timeMs: number;
  attributes: Attributes;
}

export interface SpanPlan {
  name: string;
  kind: 'internal' | 'client';
  startMs: number;
  endMs: number;
  attributes: Attributes;
  events: SpanEventPlan[];
  /** `error.type` when the operation ended in error (sets the span status to ERROR). */
  errorType: string | null;
  children: SpanPlan[];
}

export interface RunSpanOptions {
  /** Message content (prompts, outputs, tool arguments and results): only when the user opts in. */
  captureContent: boolean;
  agentName?: string;
  datasetName?: string;
}

/** The model clients' provider names (lib/models) as GenAI `gen_ai.provider.name` values. */
const GENAI_PROVIDER: Record<string, string> = { bedrock: 'aws.bedrock', fake: 'stockroom.fake' };

/** `gen_ai.provider.name`: what the live client reported, else the harness's own deterministic model. */
export function providerOf(run: RunResult, turn?: ModelTurn): string {
  const reported = turn?.provider ?? run.trajectory.find((s): s is ModelTurn => s.kind === 'model_turn' && s.provider !== undefined)?.provider;
  if (reported) return GENAI_PROVIDER[reported] ?? reported;
  return run.mode === 'mock' ? 'stockroom.fake' : '_OTHER';
}

/** `gen_ai.response.finish_reasons`: the provider's own reason when a live client reported it, else the loop's stop reason as GenAI names it. */
export function finishReasonsOf(turn: ModelTurn): string[] {
  if (turn.finishReason) return [turn.finishReason];
  switch (turn.stopReason) {
    case 'end_turn':
      return ['stop'];
    case 'tool_use':
      return ['tool_call'];
    case 'max_tokens':
      return ['length'];
    default:
      return [turn.stopReason];
  }
}

/** `error.type` of a tool call, or null when it ran cleanly. */
export function toolErrorType(record: ToolRecord): string | null {
  if (record.blockedBy !== null) return TOOL_ERROR_TYPES.blocked;
  if (record.validationError !== null) return TOOL_ERROR_TYPES.invalid;
  if (record.isError) return record.errorCode ?? TOOL_ERROR_TYPES.failed;
  if (record.quarantinedLines > 0) return TOOL_ERROR_TYPES.quarantined;
  return null;
}

const json = (value: JsonValue | unknown) => JSON.stringify(redactSecrets(value as JsonValue));

function outputMessages(turn: ModelTurn): string {
  const parts: JsonValue[] = [];
  if (turn.text !== null) parts.push({ type: 'text', content: turn.text });
  for (const call of turn.toolCalls) parts.push({ type: 'tool_call', id: call.toolUseId, name: call.name, arguments: call.arguments });
  return json([{ role: 'assistant', parts, finish_reason: finishReasonsOf(turn)[0] ?? 'stop' }]);
}

/** A span's start and end: the recorded time when there is one, else `cursor` plus the latency. */
function spanTimes(runStartMs: number, time: CallTime | null, cursor: number, latencyMs: number): { startMs: number; endMs: number } {
  if (time) return { startMs: runStartMs + time.startMs, endMs: runStartMs + Math.max(time.startMs, time.endMs) };
  return { startMs: cursor, endMs: cursor + Math.max(0, latencyMs) };
}

function chatSpan(run: RunResult, turn: ModelTurn, index: number, callIndex: number, at: { startMs: number; endMs: number }, options: RunSpanOptions): SpanPlan {
  const attributes: Attributes = {
    [ATTR_GEN_AI_OPERATION_NAME]: GEN_AI_OPERATION_NAME_VALUE_CHAT,
    [ATTR_GEN_AI_PROVIDER_NAME]: providerOf(run, turn),
    [ATTR_GEN_AI_REQUEST_MODEL]: run.modelId,
    [ATTR_GEN_AI_RESPONSE_MODEL]: turn.model ?? run.modelId,
    // Unreported usage is left out (the GenAI conventions: unknown is not reported, never 0).
    ...(turn.inputTokens !== null ? { [ATTR_GEN_AI_USAGE_INPUT_TOKENS]: turn.inputTokens } : {}),
    ...(turn.outputTokens !== null ? { [ATTR_GEN_AI_USAGE_OUTPUT_TOKENS]: turn.outputTokens } : {}),
    [ATTR_GEN_AI_RESPONSE_FINISH_REASONS]: finishReasonsOf(turn),
    [ATTR_GEN_AI_CONVERSATION_ID]: run.runId,
    [STOCKROOM.step]: turn.step,
    [STOCKROOM.trajectoryIndex]: index,
    [STOCKROOM.stopReason]: turn.stopReason,
    [STOCKROOM.contextTokens]: turn.contextTokensEstimate,
    ...(turn.provider !== undefined ? { [STOCKROOM.provider]: turn.provider } : {}),
    ...(turn.finishReason !== undefined ? { [STOCKROOM.finishReason]: turn.finishReason } : {}),
    ...(turn.cachedTokens !== undefined ? { [ATTR_GEN_AI_USAGE_CACHE_READ_INPUT_TOKENS]: turn.cachedTokens } : {}),
    // A streamed call's measured time to first token, in seconds as the GenAI conventions have it; none when not streamed.
    ...(turn.timeToFirstTokenMs !== undefined ? { [ATTR_GEN_AI_RESPONSE_TIME_TO_FIRST_CHUNK]: turn.timeToFirstTokenMs / 1000 } : {}),
    ...(turn.providerId !== undefined ? { [STOCKROOM.providerId]: turn.providerId } : {}),
    ...(turn.model !== undefined ? { [STOCKROOM.model]: turn.model } : {}),
    ...(turn.costNote !== undefined ? { [STOCKROOM.costNote]: turn.costNote, ...(typeof turn.costUsd === 'number' ? { [STOCKROOM.costUsd]: turn.costUsd } : {}) } : {}),
    // Which tools the model asked for (names and ids, not arguments): a call a guard stopped before
    // it ran has no execute_tool span, and the import still needs to know it was asked for.
    [STOCKROOM.requestedToolNames]: turn.toolCalls.map((c) => c.name),
    [STOCKROOM.requestedToolIds]: turn.toolCalls.map((c) => c.toolUseId),
  };
  if (options.captureContent) {
    const input = run.modelInputs[callIndex];
    if (input) attributes[ATTR_GEN_AI_INPUT_MESSAGES] = json(input.messages);
    attributes[ATTR_GEN_AI_OUTPUT_MESSAGES] = outputMessages(turn);
  }
  return {
    name: `${GEN_AI_OPERATION_NAME_VALUE_CHAT} ${run.modelId}`,
    kind: 'client',
    startMs: at.startMs,
    endMs: at.endMs,
    attributes,
    events: [],
    errorType: null,
    children: [],
  };
}

function toolSpan(record: ToolRecord, index: number, at: { startMs: number; endMs: number }, options: RunSpanOptions): SpanPlan {
  const { startMs, endMs } = at;
  const attributes: Attributes = {
    [ATTR_GEN_AI_OPERATION_NAME]: GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL,
    [ATTR_GEN_AI_TOOL_NAME]: record.name,
    [ATTR_GEN_AI_TOOL_CALL_ID]: record.toolUseId,
    [ATTR_GEN_AI_TOOL_TYPE]: 'function',
    [STOCKROOM.step]: record.step,
    [STOCKROOM.trajectoryIndex]: index,
    [STOCKROOM.toolExecuted]: record.executed,
    [STOCKROOM.toolIsError]: record.isError,
    [STOCKROOM.toolQuarantinedLines]: record.quarantinedLines,
    [STOCKROOM.toolSanitized]: record.sanitized,
    [STOCKROOM.toolPayloadChars]: record.payloadChars,
  };
  if (record.errorCode !== null) attributes[STOCKROOM.toolErrorCode] = record.errorCode;
  if (record.blockedBy !== null) attributes[STOCKROOM.toolBlockedBy] = record.blockedBy;
  if (record.validationError !== null) attributes[STOCKROOM.toolValidationError] = record.validationError;
  if (options.captureContent) {
    attributes[ATTR_GEN_AI_TOOL_CALL_ARGUMENTS] = json(record.arguments);
    attributes[ATTR_GEN_AI_TOOL_CALL_RESULT] = json(record.resultContent);
  }
  const errorType = toolErrorType(record);
  if (errorType !== null) attributes[ATTR_ERROR_TYPE] = errorType;
  const events: SpanEventPlan[] = [];
  if (record.policy) {
    events.push({
      name: EVENTS.approval,
      timeMs: endMs,
      attributes: {
        'stockroom.policy.decision': record.policy.decision,
        'stockroom.policy.rule': record.policy.rule,
        'stockroom.policy.version': record.policy.policyVersion,
        ...(record.policy.resolution ? { 'stockroom.policy.resolution': record.policy.resolution } : {}),
      },
    });
  }
  return { name: `${GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL} ${record.name}`, kind: 'internal', startMs, endMs, attributes, events, errorType, children: [] };
}

/** The span tree of one finished run. */
export function planRunSpans(run: RunResult, options: RunSpanOptions): SpanPlan {
  const startMs = Date.parse(run.startedAt);
  const agentName = options.agentName ?? 'stockroom';
  const children: SpanPlan[] = [];
  const events: SpanEventPlan[] = [];
  const stepStart = new Map<number, number>();
  const times = callTimesOf(run);
  let cursor = startMs;
  let latest = startMs;
  let callIndex = 0;
  run.trajectory.forEach((entry, index) => {
    switch (entry.kind) {
      case 'model_turn': {
        const at = spanTimes(startMs, timeAt(times, index, 'model_call'), cursor, entry.latencyMs);
        if (!stepStart.has(entry.step)) stepStart.set(entry.step, at.startMs);
        const span = chatSpan(run, entry, index, callIndex++, at, options);
        if (entry.agent !== undefined) span.attributes[STOCKROOM.agent] = entry.agent;
        children.push(span);
        cursor = span.endMs;
        break;
      }
      case 'tool_call': {
        const at = spanTimes(startMs, timeAt(times, index, 'tool_call'), cursor, entry.latencyMs);
        if (!stepStart.has(entry.step)) stepStart.set(entry.step, at.startMs);
        const span = toolSpan(entry, index, at, options);
        if (entry.agent !== undefined) span.attributes[STOCKROOM.agent] = entry.agent;
        children.push(span);
        cursor = span.endMs;
        break;
      }
      case 'guard': {
        const time = timeAt(times, index, 'guard');
        const timeMs = time ? startMs + time.endMs : cursor;
        if (!stepStart.has(entry.step)) stepStart.set(entry.step, timeMs);
        latest = Math.max(latest, timeMs);
        events.push({
          name: EVENTS.guard,
          timeMs,
          attributes: { 'stockroom.guard.name': entry.guard, 'stockroom.guard.reason': entry.reason, 'stockroom.guard.detail': entry.detail, [STOCKROOM.step]: entry.step, [STOCKROOM.trajectoryIndex]: index },
        });
        break;
      }
      case 'guardrail':
        events.push({
          name: EVENTS.guardrail,
          timeMs: cursor,
          attributes: {
            'stockroom.guardrail.name': entry.guardrail,
            'stockroom.guardrail.action': entry.action,
            'stockroom.guardrail.detail': entry.detail,
            ...(entry.source ? { 'stockroom.guardrail.source': entry.source } : {}),
            ...(entry.toolUseId ? { 'stockroom.guardrail.tool_use_id': entry.toolUseId } : {}),
            ...(entry.findings ? { 'stockroom.guardrail.findings': entry.findings.length } : {}),
            ...(entry.message ? { 'stockroom.guardrail.message': entry.message } : {}),
            ...(entry.verdict ? { 'stockroom.guardrail.severity': entry.verdict.severity } : {}),
            // Findings are masked when recorded; the text around them is content, sent only on opt-in.
            'stockroom.guardrail.event': JSON.stringify(
              options.captureContent || !entry.findings ? entry : { ...entry, findings: entry.findings.map((f) => ({ ...f, before: '', match: '', after: '' })) },
            ),
            [STOCKROOM.step]: entry.step,
            [STOCKROOM.trajectoryIndex]: index,
          },
        });
        break;
      case 'tool_session':
        // Before the call it was opened for (the server's own words are not in it: ours only).
        events.push({
          name: EVENTS.toolSession,
          timeMs: cursor,
          attributes: {
            'stockroom.tool_session.server': entry.server,
            'stockroom.tool_session.reason': entry.reason,
            'stockroom.tool_session.tool': entry.name,
            'stockroom.tool_session.event': JSON.stringify(entry),
            [STOCKROOM.step]: entry.step,
            [STOCKROOM.trajectoryIndex]: index,
          },
        });
        break;
      case 'compaction':
        if (!stepStart.has(entry.step)) stepStart.set(entry.step, cursor);
        events.push({
          name: EVENTS.compaction,
          timeMs: cursor,
          attributes: {
            'stockroom.compaction.tokens_before': entry.tokensBefore,
            'stockroom.compaction.tokens_after': entry.tokensAfter,
            'stockroom.compaction.results_summarised': entry.resultsSummarised,
            [STOCKROOM.step]: entry.step,
            [STOCKROOM.trajectoryIndex]: index,
          },
        });
        break;
    }
  });
  // The root covers its children: a resumed run's duration leaves out the wait for a reviewer, its times do not.
  const endMs = Math.max(cursor, latest, ...children.map((c) => c.endMs), startMs + Math.max(0, run.durationMs));
  run.transitions.forEach((t, idx) => {
    events.push({
      name: EVENTS.transition,
      timeMs: stepStart.get(t.step) ?? (t.step === 0 ? startMs : endMs),
      attributes: { 'stockroom.transition.from': t.from, 'stockroom.transition.to': t.to, 'stockroom.transition.reason': t.reason, [STOCKROOM.step]: t.step, 'stockroom.transition.index': idx },
    });
  });
  events.sort((a, b) => a.timeMs - b.timeMs);

  const attributes: Attributes = {
    [ATTR_GEN_AI_OPERATION_NAME]: GEN_AI_OPERATION_NAME_VALUE_INVOKE_AGENT,
    [ATTR_GEN_AI_AGENT_NAME]: agentName,
    [ATTR_GEN_AI_PROVIDER_NAME]: providerOf(run),
    [ATTR_GEN_AI_REQUEST_MODEL]: run.modelId,
    [ATTR_GEN_AI_CONVERSATION_ID]: run.runId,
    [ATTR_GEN_AI_USAGE_INPUT_TOKENS]: run.usage.inputTokens,
    [ATTR_GEN_AI_USAGE_OUTPUT_TOKENS]: run.usage.outputTokens,
    [STOCKROOM.runId]: run.runId,
    [STOCKROOM.mode]: run.mode,
    [STOCKROOM.status]: run.status,
    [STOCKROOM.steps]: run.steps,
    [STOCKROOM.weaknesses]: [...run.weaknesses],
    [STOCKROOM.terminationReason]: run.terminationReason,
  };
  if (run.caseId !== null) attributes[STOCKROOM.caseId] = run.caseId;
  if (options.datasetName) attributes[STOCKROOM.datasetName] = options.datasetName;
  if (options.captureContent) {
    attributes[STOCKROOM.query] = run.query;
    attributes[ATTR_GEN_AI_SYSTEM_INSTRUCTIONS] = json([{ type: 'text', content: run.systemPrompt }]);
    attributes[ATTR_GEN_AI_INPUT_MESSAGES] = json([{ role: 'user', parts: [{ type: 'text', content: run.query }] }]);
    attributes[ATTR_GEN_AI_OUTPUT_MESSAGES] = json([{ role: 'assistant', parts: [{ type: 'text', content: run.finalAnswer }] }]);
  }
  const failed = run.terminationReason !== 'COMPLETED';
  if (failed) attributes[ATTR_ERROR_TYPE] = run.terminationReason;
  const agents = run.agents ?? [];
  const rootName = agents[0]?.name ?? agentName;
  if (agents.length > 0) {
    attributes[ATTR_GEN_AI_AGENT_NAME] = rootName;
    attributes[STOCKROOM.agents] = JSON.stringify(agents);
  }
  return {
    name: `${GEN_AI_OPERATION_NAME_VALUE_INVOKE_AGENT} ${rootName}`,
    kind: 'internal',
    startMs,
    endMs,
    attributes,
    events,
    errorType: failed ? run.terminationReason : null,
    children: agents.length > 1 ? nestUnderAgents(run, startMs, children) : children,
  };
}

/**
 * A run with sub-agents (issue 31): each sub-agent an `invoke_agent` span under its parent's span
 * (under the tool call it ran as, for an agent called as a tool), each step under its own agent's.
 */
function nestUnderAgents(run: RunResult, runStartMs: number, steps: SpanPlan[]): SpanPlan[] {
  const agents = run.agents!;
  const agentOf = (plan: SpanPlan) => (typeof plan.attributes[STOCKROOM.agent] === 'number' ? (plan.attributes[STOCKROOM.agent] as number) : 0);
  const plans = agents.map((agent, i): SpanPlan => {
    const own = steps.filter((s) => agentOf(s) === i);
    const start = agent.time ? runStartMs + agent.time.startMs : Math.min(...own.map((s) => s.startMs), runStartMs);
    const end = agent.time ? runStartMs + agent.time.endMs : Math.max(...own.map((s) => s.endMs), start);
    const failed = agent.rollup.outcome === 'failed';
    return {
      name: `${GEN_AI_OPERATION_NAME_VALUE_INVOKE_AGENT} ${agent.name}`,
      kind: 'internal',
      startMs: start,
      endMs: end,
      attributes: { [ATTR_GEN_AI_OPERATION_NAME]: GEN_AI_OPERATION_NAME_VALUE_INVOKE_AGENT, [ATTR_GEN_AI_AGENT_NAME]: agent.name, [STOCKROOM.agent]: i },
      events: [],
      errorType: failed ? agent.rollup.outcomeDetail || 'error' : null,
      children: own,
    };
  });
  agents.forEach((agent, i) => {
    if (i === 0) return;
    const parent = plans[agent.parent ?? 0]!;
    const tool = agent.entered === 'tool' && agent.via?.toolUseId ? parent.children.find((c) => c.attributes[ATTR_GEN_AI_TOOL_CALL_ID] === agent.via!.toolUseId) : undefined;
    (tool ?? parent).children.push(plans[i]!);
  });
  return plans[0]!.children;
}
