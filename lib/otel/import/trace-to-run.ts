/**
 * One trace's spans as a RunResult, whichever convention wrote them (conventions/span-view.ts:
 * OpenTelemetry GenAI with content in attributes, span events or log records; OpenInference;
 * the Vercel AI SDK; OpenLLMetry), as a tree of agents (tree.ts): every model call becomes a model
 * turn of its agent with the messages it saw, every tool span a tool record attached to its own
 * agent's last model call, every other span a step of its own kind (span-steps.ts); each agent gets
 * its own transitions and rollup (agent-runs.ts). Each call is priced alone (pricing.ts: never a
 * throw, unknown is null). The project's own `stockroom.*` attributes and events, when present,
 * restore what the conventions do not carry (termination, guards, exact order, the agents).
 */
import type { JsonValue } from '../../harness';
import { AgentSchema, type ModelInput, type ModelTurn, type RunResult, type StepTree, type ToolRecord, type TrajectoryStep } from '../../harness';
import { ATTR_GEN_AI_CONVERSATION_ID, ATTR_GEN_AI_OUTPUT_MESSAGES, ATTR_GEN_AI_REQUEST_MODEL, ATTR_GEN_AI_SYSTEM_INSTRUCTIONS, STOCKROOM } from '../attributes';
import { textOfRole, toConverse } from './conventions/messages';
import { agentIo, modelCallView, num, sessionAndUser, str, toolView, traceTags, type ModelCallView } from './conventions/span-view';
import { agentsOfTrace } from './agent-runs';
import { priceCall, sumCosts, type CallCost } from './pricing';
import { normaliseProvider } from './providers';
import { converseMessages, formatOf, genAiText, queryOf, rootEvents, rootEventText, systemPromptOf, type TraceFormat } from './root-values';
import type { AttrValue, SpanRecord } from './span-record';
import { spanStep } from './span-steps';
import { isOwn, jsonAttr, modelTurn, ms, requestedCalls, spanTime, syntheticTool, toolRecord, type Call } from './step-records';
import { terminationOf, deriveTransitions } from './transitions';
import { buildTree } from './tree';

export type { TraceFormat } from './root-values';
export { conversationKeys } from './conversation-keys';
export { deriveTransitions } from './transitions';

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
  /** Its tags (Langfuse, OpenInference, AI SDK metadata; lib/eval/run-tags.ts form). */
  tags: string[];
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

function orderKey(span: SpanRecord, position: number): [number, bigint, number] {
  return [num(span.attributes[STOCKROOM.trajectoryIndex]) ?? Number.MAX_SAFE_INTEGER, span.startNs, position];
}

function compareKeys(a: [number, bigint, number], b: [number, bigint, number]): number {
  if (a[0] !== b[0]) return a[0] - b[0];
  if (a[1] !== b[1]) return a[1] < b[1] ? -1 : 1;
  return a[2] - b[2];
}

/** Our own export's per-call costs, when every call carried one (an imported trace exported again); else none. */
function ownCosts(turns: ModelTurn[]): CallCost[] {
  if (turns.length === 0 || turns.some((t) => t.costNote === undefined)) return [];
  return turns.map((t) => ({ usd: t.costUsd ?? null, note: t.costNote!, missing: t.costUsd === null || t.costUsd === undefined ? `${t.providerId ?? t.provider ?? 'unknown provider'}:${t.model ?? 'unknown model'}` : null }));
}

/** The run's cost: the sum of its calls' (null with the unpriced named when any is unknown); not recorded when none was priced. */
function costEstimateOf(costs: CallCost[], total: { usd: number | null; note: string }): RunResult['costEstimate'] {
  if (costs.length === 0) return { usd: null, note: IMPORTED_COST_NOTE, known: false };
  return total.usd === null ? { usd: null, note: total.note, known: false } : { usd: total.usd, note: total.note, known: true };
}

/** Our own export's agents (a run with more than one), whole; null when absent or unreadable. */
function ownAgents(root: SpanRecord): RunResult['agents'] | null {
  const raw = jsonAttr(root.attributes[STOCKROOM.agents]);
  if (raw === undefined) return null;
  const parsed = AgentSchema.array().safeParse(raw);
  return parsed.success && parsed.data.length > 0 ? parsed.data : null;
}

/** Each agent's progress while its spans are read in order: its last model call and the calls it asked for. */
interface AgentCursor {
  turn: ModelTurn | null;
  chatSpan: SpanRecord | null;
  pending: Call[];
}

/**
 * The run one trace describes, or null when the trace has no model or tool spans (not an agent
 * trace: an HTTP request's spans, say, or one whose model calls have not arrived yet).
 */
export function traceToRun(input: SpanRecord[]): ImportedTrace | null {
  if (input.length === 0) return null;
  const tree = buildTree(input);
  const { spans, root, kinds } = tree;
  const rootKind = kinds.get(root)!;
  const a = root.attributes;
  const own = isOwn(root) || str(a[STOCKROOM.runId]) !== null;
  const exported = own ? ownAgents(root) : null;
  // Our own single-agent export reads back as it was made: no agents list (agentsOf gives `stockroom`).
  const agentsKept = exported !== null || (!own && tree.agents.length > 0);
  const ordered = spans
    .map((span, position) => ({ span, key: orderKey(span, position), kind: kinds.get(span)! }))
    .filter((s) => (s.span === root ? s.kind === 'chat' || s.kind === 'tool' : s.kind !== 'agent'))
    .sort((x, y) => compareKeys(x.key, y.key));
  if (!ordered.some((s) => s.kind === 'chat' || s.kind === 'tool')) return null;
  const format = formatOf(spans);
  const views = new Map<SpanRecord, ModelCallView>();
  for (const { span, kind } of ordered) if (kind === 'chat') views.set(span, modelCallView(span));
  const allViews = [...views.values()];

  const treeOf = (span: SpanRecord): StepTree => {
    const agent = exported ? num(span.attributes[STOCKROOM.agent]) : agentsKept ? (tree.agentOf.get(span.spanId) ?? 0) : null;
    const at: StepTree = agent !== null ? { agent } : {};
    if (own) return at;
    at.spanId = span.spanId;
    at.parentSpanId = tree.parentOf.get(span.spanId) ?? null;
    return at;
  };
  const entries: Array<[number, TrajectoryStep]> = [];
  const chatViews: ModelCallView[] = [];
  const chatSpans: SpanRecord[] = [];
  const costs: CallCost[] = [];
  const modelInputs: ModelInput[] = [];
  const details: ModelCallDetail[] = [];
  const cursors = new Map<number, AgentCursor>();
  const cursorOf = (agent: number) => cursors.get(agent) ?? (cursors.set(agent, { turn: null, chatSpan: null, pending: [] }), cursors.get(agent)!);
  let step = 0;
  ordered.forEach(({ span, kind, key }, position) => {
    const sortIndex = key[0] === Number.MAX_SAFE_INTEGER ? position : key[0];
    const at = treeOf(span);
    const cursor = cursorOf(at.agent ?? 0);
    if (kind === 'chat') {
      const view = views.get(span)!;
      // Calls this agent's last turn asked for that no tool span recorded, answered in this call's input:
      // the tool ran outside any instrumented span (a bare model-call instrumentation).
      for (const call of cursor.pending) {
        const answer = (view.input ?? []).find((m) => m.role === 'tool' && m.toolCallId === call.toolUseId);
        if (answer) entries.push([sortIndex - 0.5, { ...syntheticTool(call, step, answer), ...at }]);
      }
      step = Math.trunc(num(span.attributes[STOCKROOM.step]) ?? step + 1);
      chatViews.push(view);
      chatSpans.push(span);
      const calls = requestedCalls(span, view);
      const providerId = normaliseProvider(view.provider);
      const model = view.responseModel ?? view.requestModel;
      // Properties added in place, in the order a spread would give them: spreading a 20-key step into
      // a new object per span was a tenth of the import's CPU (issue 36).
      const turn: ModelTurn = modelTurn(span, view, step, calls ?? []);
      turn.time = spanTime(root, span);
      Object.assign(turn, at);
      if (!own) {
        const cost = priceCall({ providerId, models: [view.responseModel, view.requestModel], inputTokens: turn.inputTokens ?? 0, outputTokens: turn.outputTokens ?? 0, cachedTokens: turn.cachedTokens ?? 0 });
        costs.push(cost);
        if (providerId !== null && providerId !== view.provider) turn.providerId = providerId;
        if (model !== null) turn.model = model;
        turn.costUsd = cost.usd;
        turn.costNote = cost.note;
      } else {
        // Our own export of a call that was priced on its own (an imported trace exported again).
        const o = span.attributes;
        const ownNote = str(o[STOCKROOM.costNote]);
        const ownProvider = str(o[STOCKROOM.providerId]);
        const ownModel = str(o[STOCKROOM.model]);
        if (ownProvider !== null) turn.providerId = ownProvider;
        if (ownModel !== null) turn.model = ownModel;
        if (ownNote !== null) {
          turn.costUsd = num(o[STOCKROOM.costUsd]);
          turn.costNote = ownNote;
        }
      }
      cursor.turn = turn;
      cursor.chatSpan = span;
      cursor.pending = [...(calls ?? [])];
      entries.push([sortIndex, turn]);
      const messages = converseMessages(span) ?? (view.input ? toConverse(view.input) : undefined);
      if (messages) modelInputs.push({ step, messages });
      details.push({ step, provider: view.provider, requestModel: view.requestModel, responseModel: view.responseModel, finishReasons: view.finishReasons, cachedTokens: view.cachedTokens, invocationParameters: view.invocationParameters });
      return;
    }
    if (kind !== 'tool') {
      entries.push([sortIndex, spanStep(span, Math.max(cursor.turn?.step ?? step, 1), spanTime(root, span), at)]);
      return;
    }
    const toolStep = Math.trunc(num(span.attributes[STOCKROOM.step]) ?? Math.max(cursor.turn?.step ?? step, 1));
    const id = toolView(span).callId;
    const matchAt = cursor.pending.findIndex((c) => (id !== null ? c.toolUseId === id : true));
    const requested = matchAt >= 0 ? cursor.pending.splice(matchAt, 1)[0] : undefined;
    const record: ToolRecord = toolRecord(span, toolStep, requested, allViews);
    record.time = spanTime(root, span);
    Object.assign(record, at);
    // A model turn whose calls the trace did not list gets them from its agent's tool spans that followed it.
    const turn = cursor.turn;
    if (turn && turn.step === toolStep && !requested && !turn.toolCalls.some((c) => c.toolUseId === record.toolUseId)) {
      turn.toolCalls.push({ toolUseId: record.toolUseId, name: record.name, arguments: record.arguments });
      if (turn.stopReason === 'end_turn' && !str(cursor.chatSpan?.attributes[STOCKROOM.stopReason])) turn.stopReason = 'tool_use';
    }
    entries.push([sortIndex, record]);
  });
  const events = rootEvents(root);
  const trajectory = [...entries, ...events.entries].sort((x, y) => x[0] - y[0]).map(([, s]) => s);
  const terminationReason = terminationOf(root, trajectory);
  const turns = trajectory.filter((s): s is ModelTurn => s.kind === 'model_turn');
  const perCall = turns.map((t) => ({ inputTokens: t.inputTokens, outputTokens: t.outputTokens, ...(t.cachedTokens !== undefined ? { cachedTokens: t.cachedTokens } : {}) }));
  const inputTokens = perCall.reduce((n, c) => n + (c.inputTokens ?? 0), 0);
  const outputTokens = perCall.reduce((n, c) => n + (c.outputTokens ?? 0), 0);
  const cachedKnown = turns.some((t) => t.cachedTokens !== undefined);
  const cachedTokens = turns.reduce((n, t) => n + (t.cachedTokens ?? 0), 0);
  const agents = exported ?? (agentsKept ? agentsOfTrace(tree, trajectory, terminationReason) : undefined);
  const rootTurns = agents ? turns.filter((t) => (t.agent ?? 0) === 0) : turns;
  const rootViews = agents ? chatViews.filter((_, i) => (turns[i]?.agent ?? 0) === 0) : chatViews;
  const rootIsCall = rootKind === 'chat' || rootKind === 'tool';
  const lastText = [...(rootTurns.length > 0 ? rootTurns : turns)].reverse().find((t) => t.text !== null)?.text ?? '';
  const io = rootIsCall ? null : agentIo(root);
  const finalAnswer = genAiText(a[ATTR_GEN_AI_OUTPUT_MESSAGES], 'assistant') ?? (rootIsCall ? null : rootEventText(root, 'assistant')) ?? io?.output ?? lastText;
  const mode = str(a[STOCKROOM.mode]);
  const weaknesses = Array.isArray(a[STOCKROOM.weaknesses]) ? (a[STOCKROOM.weaknesses] as AttrValue[]).filter((w): w is string => typeof w === 'string') : [];
  const modelId = str(a[ATTR_GEN_AI_REQUEST_MODEL]) ?? [...rootViews, ...chatViews].map((v) => v.requestModel ?? v.responseModel).find((m) => m !== null) ?? 'unknown';
  const systemPrompt =
    systemPromptOf(a[ATTR_GEN_AI_SYSTEM_INSTRUCTIONS]) ??
    io?.system ??
    chatSpans.map((s) => systemPromptOf(s.attributes[ATTR_GEN_AI_SYSTEM_INSTRUCTIONS])).find((p) => p !== null) ??
    chatViews.map((v) => textOfRole(v.input, 'system')).find((p) => p !== null) ??
    '';
  const total = sumCosts(own ? ownCosts(turns) : costs, 'imported trace');
  const tagged = traceTags(spans);
  const setAside = [...tree.setAside, ...tagged.setAside];
  const run: RunResult = {
    runId: str(a[STOCKROOM.runId]) ?? str(a[ATTR_GEN_AI_CONVERSATION_ID]) ?? root.traceId,
    caseId: str(a[STOCKROOM.caseId]),
    query: queryOf(root, rootIsCall, rootViews.length > 0 ? rootViews : chatViews),
    finalAnswer,
    terminationReason,
    trajectory,
    transitions: events.transitions ?? (agents && !exported ? agents[0]!.transitions : deriveTransitions(trajectory, terminationReason)),
    usage: { modelCalls: turns.length, inputTokens, outputTokens, totalTokens: inputTokens + outputTokens, ...(cachedKnown ? { cachedTokens } : {}), perCall },
    costEstimate: costEstimateOf(own ? ownCosts(turns) : costs, total),
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
    ...(agents ? { agents } : {}),
    ...(setAside.length > 0 ? { setAside } : {}),
  };
  const firstOf = (key: string) => spans.map((s) => str(s.attributes[key])).find((v) => v !== null) ?? null;
  const ids = sessionAndUser(spans);
  const sessionId = ids.sessionId ?? firstOf(ATTR_GEN_AI_CONVERSATION_ID);
  return { traceId: root.traceId, format, serviceName: root.serviceName, datasetName: str(a[STOCKROOM.datasetName]), sessionId, userId: ids.userId, tags: tagged.tags, modelCalls: details, run };
}
