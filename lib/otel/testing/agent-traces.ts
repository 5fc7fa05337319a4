/**
 * Hand-made OTLP/JSON traces of trees of agents, as a producer would send them (issue 31): the
 * planner and sub-agent of the issue in GenAI spans, on any provider spelling; and a small span
 * builder for the other shapes (agents as tools, handoffs, parallel branches, OpenInference kinds).
 */
import { createHash } from 'node:crypto';

type Attr = string | number | boolean | string[];
export interface SpanSpec {
  id: string;
  parent?: string | null;
  name: string;
  /** Offsets from the trace start, ms. */
  start: number;
  end: number;
  attributes?: Record<string, Attr>;
  status?: 'error';
}

const T0_NS = 1_767_225_600_000_000_000n; // 2026-01-01T00:00:00Z

const hex = (seed: string, chars: number) => createHash('sha256').update(seed).digest('hex').slice(0, chars);
export const traceIdOf = (seed: string) => hex(`trace:${seed}`, 32);
export const spanIdOf = (seed: string, id: string) => hex(`span:${seed}:${id}`, 16);

function value(v: Attr): Record<string, unknown> {
  if (Array.isArray(v)) return { arrayValue: { values: v.map((x) => ({ stringValue: x })) } };
  if (typeof v === 'string') return { stringValue: v };
  if (typeof v === 'boolean') return { boolValue: v };
  return Number.isInteger(v) ? { intValue: String(v) } : { doubleValue: v };
}

/** One OTLP span of a trace (ids derived from the trace's seed and the span's own id). */
export function otlpSpan(seed: string, s: SpanSpec): Record<string, unknown> {
  return {
    traceId: traceIdOf(seed),
    spanId: spanIdOf(seed, s.id),
    ...(s.parent ? { parentSpanId: spanIdOf(seed, s.parent) } : {}),
    name: s.name,
    kind: 1,
    startTimeUnixNano: String(T0_NS + BigInt(Math.round(s.start * 1e6))),
    endTimeUnixNano: String(T0_NS + BigInt(Math.round(s.end * 1e6))),
    attributes: Object.entries(s.attributes ?? {}).map(([key, v]) => ({ key, value: value(v) })),
    status: s.status === 'error' ? { code: 2, message: 'failed' } : { code: 1 },
  };
}

/** An OTLP/JSON export document of some traces' spans. */
export function otlpDocument(traces: Array<{ seed: string; spans: SpanSpec[] }>, service = 'agents-app'): { resourceSpans: unknown[] } {
  return {
    resourceSpans: [
      {
        resource: { attributes: [{ key: 'service.name', value: { stringValue: service } }] },
        scopeSpans: [{ scope: { name: 'hand-made' }, spans: traces.flatMap((t) => t.spans.map((s) => otlpSpan(t.seed, s))) }],
      },
    ],
  };
}

const msgs = (role: string, text: string) => JSON.stringify([{ role, parts: [{ type: 'text', content: text }] }]);
const callMsg = (id: string, name: string, args: unknown) => JSON.stringify([{ role: 'assistant', parts: [{ type: 'tool_call', id, name, arguments: args }], finish_reason: 'tool_call' }]);

function chat(id: string, parent: string, start: number, end: number, provider: string, model: string, usage: [number, number], output: string): SpanSpec {
  return {
    id,
    parent,
    name: `chat ${model}`,
    start,
    end,
    attributes: {
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': provider,
      'gen_ai.request.model': model,
      'gen_ai.usage.input_tokens': usage[0],
      'gen_ai.usage.output_tokens': usage[1],
      'gen_ai.output.messages': output,
    },
  };
}

function tool(id: string, parent: string, start: number, end: number, name: string, callId: string, result: unknown): SpanSpec {
  return {
    id,
    parent,
    name: `execute_tool ${name}`,
    start,
    end,
    attributes: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': name, 'gen_ai.tool.call.id': callId, 'gen_ai.tool.call.result': JSON.stringify(result) },
  };
}

export function agentSpan(id: string, parent: string | null, start: number, end: number, name: string, extra: Record<string, Attr> = {}): SpanSpec {
  return { id, parent, name: `invoke_agent ${name}`, start, end, attributes: { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': name, ...extra } };
}

/**
 * The trace: the planner (root `invoke_agent planner`) calls the sub-agent
 * `invoke_agent inventory-checker` (two chat calls and its own `get_stock_level`), then calls
 * `create_restock_request` itself and answers. Eight spans, every one with its times.
 */
export function plannerTrace(provider = 'openai', model = 'gpt-4o-mini'): SpanSpec[] {
  return [
    agentSpan('planner', null, 0, 1000, 'planner', { 'gen_ai.input.messages': msgs('user', 'Restock the low items') }),
    agentSpan('checker', 'planner', 10, 400, 'inventory-checker'),
    chat('c1', 'checker', 20, 120, provider, model, [100, 20], callMsg('call-stock', 'get_stock_level', { sku: 'A-1' })),
    tool('t1', 'checker', 130, 180, 'get_stock_level', 'call-stock', { sku: 'A-1', level: 2 }),
    chat('c2', 'checker', 190, 390, provider, model, [150, 30], msgs('assistant', 'A-1 is low (2 left)')),
    chat('c3', 'planner', 410, 600, provider, model, [200, 40], callMsg('call-restock', 'create_restock_request', { sku: 'A-1', qty: 10 })),
    tool('t2', 'planner', 610, 700, 'create_restock_request', 'call-restock', { ok: true }),
    chat('c4', 'planner', 710, 990, provider, model, [250, 50], msgs('assistant', 'Restock of A-1 requested')),
  ];
}

/**
 * A big tree of `agentCount` agents in about `spanCount` GenAI spans (the agent-tree bench's trace): agent 0 the
 * root; agents 1–7 under it, the rest under those, every third one called through a tool of its parent,
 * branches overlapping in time; each agent alternates chat calls (two provider spellings) and tool calls.
 */
export function agentTreeSpans(agentCount: number, spanCount: number): SpanSpec[] {
  const perAgent = Math.floor((spanCount - agentCount) / agentCount / 2);
  const spans: SpanSpec[] = [];
  const window = 100_000;
  for (let a = 0; a < agentCount; a++) {
    const parent = a === 0 ? null : a < 8 ? 'agent-0' : `agent-${1 + (a % Math.min(7, agentCount - 1))}`;
    const start = a === 0 ? 0 : (a % 4) * 1000 + a * 10;
    const end = a === 0 ? window + 50_000 : start + window / 2;
    // Every third sub-agent runs under a tool call of its parent.
    const underTool = a > 0 && a % 3 === 0;
    if (underTool) spans.push({ id: `tool-for-${a}`, parent: parent!, name: `execute_tool ask_${a}`, start: start - 1, end: end + 1, attributes: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': `ask_${a}`, 'gen_ai.tool.call.id': `call-agent-${a}` } });
    spans.push({ id: `agent-${a}`, parent: underTool ? `tool-for-${a}` : parent, name: `invoke_agent agent-${a}`, start, end, attributes: { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': `agent-${a}` } });
    const step = (end - start) / (perAgent * 2 + 1);
    for (let k = 0; k < perAgent; k++) {
      const t = start + step * (2 * k + 0.5);
      spans.push({ id: `c-${a}-${k}`, parent: `agent-${a}`, name: 'chat gpt-4o-mini', start: t, end: t + step * 0.8, attributes: { 'gen_ai.operation.name': 'chat', 'gen_ai.provider.name': a % 2 ? 'gcp.gemini' : 'openai', 'gen_ai.request.model': a % 2 ? 'gemini-2.5-flash' : 'gpt-4o-mini', 'gen_ai.usage.input_tokens': 500 + k, 'gen_ai.usage.output_tokens': 20 } });
      spans.push({ id: `t-${a}-${k}`, parent: `agent-${a}`, name: 'execute_tool lookup', start: t + step, end: t + step * 1.8, attributes: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'lookup', 'gen_ai.tool.call.id': `call-${a}-${k}`, 'gen_ai.tool.call.result': `{"k":${k}}` } });
    }
  }
  // Children before their root, as a BatchSpanProcessor sends them.
  return [...spans.filter((s) => s.parent !== null), ...spans.filter((s) => s.parent === null)];
}
