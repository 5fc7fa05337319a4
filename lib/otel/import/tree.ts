/**
 * The tree of one trace's spans, and the agents in it (issue 31). Repairs what cannot stand as
 * sent and names each repair (SetAside): the same span id twice with different content (the
 * first kept), a parent that never arrived (the span hangs from the root), a cycle in parent ids
 * (cut where it was found), an agent name too long (cut), agents nested deeper than MAX_AGENT_DEPTH
 * (folded into their ancestor). Nothing else is dropped, and no sibling is lost.
 *
 * Agents: GenAI `invoke_agent`, OpenInference AGENT (but not one with no `graph.node.id` above
 * AGENT spans that carry one: that is the workflow), LangGraph nodes (`metadata.langgraph_node`),
 * AI SDK `ai.generateText`-style calls and OpenLLMetry agents/workflows. An agent's parent is its
 * nearest agent ancestor (else the agent its OpenInference `graph.node.parent_id` names); it was
 * entered as a `tool` when a tool span lies between them, as a `handoff` when its named parent
 * called a `handoff_to_<it>` / `transfer_to_<it>` tool, else `delegate`. Agents with no agent above
 * them that ran one after another are a chain of handoffs (OpenAI Agents, LangGraph supervisor
 * style; one that ran before takes its earlier place again); ones that overlapped hang from a root
 * made for the trace. Siblings that overlapped in time share a parallel-branch marker.
 */
import { SemanticConventions as OI } from '@arizeai/openinference-semantic-conventions';
import { SpanAttributes as TL } from '@traceloop/ai-semantic-conventions';
import type { AgentEntry, SetAside } from '../../harness';
import { kindOf, str, toolView, type SpanKind } from './conventions/span-view';
import { MAX_AGENT_DEPTH, MAX_AGENT_NAME_CHARS } from './limits';
import type { SpanRecord } from './span-record';

export interface AgentNode {
  id: string;
  name: string;
  path: string[];
  parent: number | null;
  entered: AgentEntry;
  via?: { toolUseId?: string; spanId?: string };
  parallelGroup: string | null;
  externalId?: string;
  /** Its span; null for a root made for a trace whose top agents overlapped. */
  span: SpanRecord | null;
}

export interface SpanTree {
  /** The trace's spans, each id once. */
  spans: SpanRecord[];
  root: SpanRecord;
  /** Each span's parent after repairs (null: hangs from nothing; only the root and orphans). */
  parentOf: Map<string, string | null>;
  kinds: Map<SpanRecord, SpanKind>;
  /** Agents, root first; empty when the trace has no agent span. */
  agents: AgentNode[];
  /** The agent each span belongs to (its nearest agent ancestor or itself); 0 when none. */
  agentOf: Map<string, number>;
  /** Spans that are agents (not steps). */
  agentSpans: Set<string>;
  setAside: SetAside[];
}

const byStart = (a: SpanRecord, b: SpanRecord) => (a.startNs < b.startNs ? -1 : a.startNs > b.startNs ? 1 : 0);

const safeJson = (v: unknown) => JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? x.toString() : x));
const sameContent = (a: SpanRecord, b: SpanRecord) =>
  a.name === b.name && a.startNs === b.startNs && a.endNs === b.endNs && a.parentSpanId === b.parentSpanId && safeJson(a.attributes) === safeJson(b.attributes) && a.statusCode === b.statusCode;

const brief = (name: string) => (name.length > 80 ? `${name.slice(0, 80)}…` : name);

function dedupe(spans: SpanRecord[], setAside: SetAside[]): SpanRecord[] {
  const byId = new Map<string, SpanRecord>();
  for (const s of spans) {
    const first = byId.get(s.spanId);
    if (!first) byId.set(s.spanId, s);
    else if (!sameContent(first, s)) setAside.push({ spanId: s.spanId, name: brief(s.name), reason: 'duplicate_span', action: 'dropped', detail: `span id sent twice with different content; the first (“${brief(first.name)}”) is kept` });
  }
  return [...byId.values()];
}

/** Resolves parents: a missing parent or a cycle leaves the span parentless (it hangs from the root). */
function resolveParents(spans: SpanRecord[], setAside: SetAside[]): Map<string, string | null> {
  const ids = new Set(spans.map((s) => s.spanId));
  const parentOf = new Map<string, string | null>();
  for (const s of spans) {
    const p = s.parentSpanId;
    if (p === null || p === '') parentOf.set(s.spanId, null);
    else if (!ids.has(p)) {
      parentOf.set(s.spanId, null);
      setAside.push({ spanId: s.spanId, name: brief(s.name), reason: 'missing_parent', action: 'kept', detail: `its parent ${p} never arrived; kept under the trace's root` });
    } else parentOf.set(s.spanId, p);
  }
  // Cycles: walk up from each span; a walk that meets itself is cut at the span where it closed.
  const settled = new Set<string>();
  for (const s of spans) {
    const path: string[] = [];
    const onPath = new Set<string>();
    let at: string | null = s.spanId;
    while (at !== null && !settled.has(at)) {
      if (onPath.has(at)) {
        const closing = path[path.length - 1]!;
        parentOf.set(closing, null);
        setAside.push({ spanId: closing, name: brief(spans.find((x) => x.spanId === closing)?.name ?? ''), reason: 'cycle', action: 'kept', detail: `its parent ${at} is also its descendant (a cycle); the link was cut and it is kept under the trace's root` });
        break;
      }
      onPath.add(at);
      path.push(at);
      at = parentOf.get(at) ?? null;
    }
    for (const id of path) settled.add(id);
  }
  return parentOf;
}

function agentName(span: SpanRecord): string {
  const a = span.attributes;
  return (
    str(a['gen_ai.agent.name']) ??
    str(a['agent.name']) ??
    str(a[OI.GRAPH_NODE_NAME]) ??
    str(a[TL.TRACELOOP_ENTITY_NAME]) ??
    str(a['ai.telemetry.functionId']) ??
    (span.name.replace(/^invoke_agent\s+/, '').trim() || 'agent')
  );
}

const externalIdOf = (span: SpanRecord) => str(span.attributes['gen_ai.agent.id']) ?? str(span.attributes[OI.GRAPH_NODE_ID]) ?? undefined;

export function buildTree(input: SpanRecord[]): SpanTree {
  const setAside: SetAside[] = [];
  const spans = dedupe(input, setAside);
  const parentOf = resolveParents(spans, setAside);
  const byId = new Map(spans.map((s) => [s.spanId, s]));
  const kinds = new Map(spans.map((s) => [s, kindOf(s)] as const));
  demoteWorkflows(spans, byId, parentOf, kinds);
  promoteGraphNodes(spans, byId, parentOf, kinds);
  const isAgent = (s: SpanRecord) => kinds.get(s) === 'agent';
  const parentless = spans.filter((s) => parentOf.get(s.spanId) === null);
  const root = parentless.filter(isAgent).sort(byStart)[0] ?? [...parentless].sort(byStart)[0] ?? [...spans].sort(byStart)[0]!;
  const up = (s: SpanRecord): SpanRecord | null => {
    const p = parentOf.get(s.spanId) ?? null;
    if (p !== null) return byId.get(p) ?? null;
    return s === root ? null : root;
  };

  // Each agent span's nearest agent ancestor, and whether a tool span lies between.
  const agentSpans = spans.filter(isAgent).sort(byStart);
  const agentParent = new Map<SpanRecord, { parent: SpanRecord | null; tool: SpanRecord | null }>();
  for (const a of agentSpans) {
    let tool: SpanRecord | null = null;
    let at = up(a);
    const seen = new Set<SpanRecord>();
    while (at !== null && !isAgent(at) && !seen.has(at)) {
      seen.add(at);
      if (kinds.get(at) === 'tool' && tool === null) tool = at;
      at = up(at);
    }
    agentParent.set(a, { parent: at !== null && isAgent(at) ? at : null, tool });
  }
  // OpenInference graph.node.parent_id names the parent node when span nesting does not.
  const byExternal = new Map<string, SpanRecord>();
  for (const a of agentSpans) {
    const id = str(a.attributes[OI.GRAPH_NODE_ID]);
    if (id && !byExternal.has(id)) byExternal.set(id, a);
  }
  const namedParent = new Set<SpanRecord>();
  for (const a of agentSpans) {
    const link = agentParent.get(a)!;
    const named = str(a.attributes[OI.GRAPH_NODE_PARENT_ID]);
    const parent = named ? byExternal.get(named) : undefined;
    if (link.parent === null && parent && parent !== a && !isDescendantAgent(parent, a, agentParent)) {
      agentParent.set(a, { parent, tool: link.tool });
      namedParent.add(a);
    }
  }
  // A tool call of an agent's own that hands the conversation to another (`handoff_to_<agent>`,
  // `transfer_to_<agent>`): the agent it names was entered by a handoff.
  const ownerAgent = (s: SpanRecord): SpanRecord | null => {
    const seen = new Set<SpanRecord>();
    for (let at = up(s); at !== null && !seen.has(at); at = up(at)) {
      if (isAgent(at)) return at;
      seen.add(at);
    }
    return null;
  };
  const handoffs = new Set<string>();
  for (const s of spans) {
    if (kinds.get(s) !== 'tool') continue;
    const target = handoffTarget(toolView(s).name ?? s.name);
    const owner = target ? ownerAgent(s) : null;
    if (target && owner) handoffs.add(`${owner.spanId}\u0000${target}`);
  }
  const handedOff = (from: SpanRecord, to: SpanRecord) => handoffs.has(`${from.spanId}\u0000${toolKey(agentName(to))}`);

  const agents: AgentNode[] = [];
  const indexOf = new Map<SpanRecord, number>();
  const folded = new Map<SpanRecord, number>();
  const tops = agentSpans.filter((a) => agentParent.get(a)!.parent === null);
  const add = (node: AgentNode, span: SpanRecord | null) => {
    agents.push(node);
    if (span) indexOf.set(span, agents.length - 1);
    return agents.length - 1;
  };
  const named = (span: SpanRecord): string => {
    const name = agentName(span);
    if (name.length <= MAX_AGENT_NAME_CHARS) return name;
    setAside.push({ spanId: span.spanId, name: brief(name), reason: 'name_too_long', action: 'kept', detail: `agent name of ${name.length} characters cut to ${MAX_AGENT_NAME_CHARS}` });
    return `${name.slice(0, MAX_AGENT_NAME_CHARS)}…`;
  };
  const node = (span: SpanRecord, parent: number | null, entered: AgentEntry, via?: AgentNode['via']): AgentNode => {
    const name = named(span);
    const externalId = externalIdOf(span);
    return {
      id: span.spanId,
      name,
      path: parent === null ? [name] : [...agents[parent]!.path, name],
      parent,
      entered,
      ...(via ? { via } : {}),
      parallelGroup: null,
      ...(externalId ? { externalId } : {}),
      span,
    };
  };

  if (tops.length > 0) {
    const overlapping = tops.some((t, i) => i > 0 && t.startNs < tops[i - 1]!.endNs);
    if (tops.length > 1 && overlapping) {
      // Top agents that ran at once: a root for the trace holds them.
      const rootIdx = add({ id: root.spanId, name: named(root), path: [], parent: null, entered: 'root', parallelGroup: null, span: isAgent(root) ? root : null }, null);
      agents[rootIdx]!.path = [agents[rootIdx]!.name];
      for (const t of tops) add(node(t, rootIdx, 'delegate'), t);
    } else {
      // One after another: the first is the root, each next one was handed the conversation; one
      // that ran before takes its place again (a supervisor the conversation went back to).
      const ran = new Map<string, number>();
      tops.forEach((t, i) => {
        const before = ran.get(agentName(t));
        if (before !== undefined) {
          const earlier = agents[before]!;
          add({ ...node(t, earlier.parent, earlier.entered), path: earlier.path }, t);
          return;
        }
        ran.set(agentName(t), add(node(t, i === 0 ? null : agents.length - 1, i === 0 ? 'root' : 'handoff'), t));
      });
    }
    // Then everyone below, parents before children (in start order among those whose parent is placed;
    // a child may start before its parent when the producer's clocks or ids disagree).
    let pending = agentSpans.filter((a) => !indexOf.has(a));
    while (pending.length > 0) {
      const next = pending.filter((a) => {
        const link = agentParent.get(a)!;
        return link.parent !== null && !indexOf.has(link.parent) && !folded.has(link.parent);
      });
      if (next.length === pending.length) break;
      for (const a of pending) if (!next.includes(a)) place(a);
      pending = next;
    }
    markParallel(agents);
  }

  function place(a: SpanRecord): void {
    {
      const link = agentParent.get(a)!;
      const parentIdx = link.parent ? (indexOf.get(link.parent) ?? folded.get(link.parent)) : 0;
      if (parentIdx === undefined) return;
      if (agents[parentIdx]!.path.length >= MAX_AGENT_DEPTH) {
        folded.set(a, parentIdx);
        setAside.push({ spanId: a.spanId, name: brief(agentName(a)), reason: 'too_deep', action: 'kept', detail: `agent nested deeper than ${MAX_AGENT_DEPTH}; its calls are counted with its ancestor ${brief(agents[parentIdx]!.name)}` });
        return;
      }
      const via = link.tool ? { toolUseId: toolView(link.tool).callId ?? link.tool.spanId, spanId: link.tool.spanId } : undefined;
      const entered: AgentEntry = link.tool ? 'tool' : link.parent && namedParent.has(a) && handedOff(link.parent, a) ? 'handoff' : 'delegate';
      add(node(a, parentIdx, entered, via), a);
    }
  }

  // Each span's agent: itself when it is one, else its nearest agent ancestor's, else the root's.
  const agentOf = new Map<string, number>();
  const resolve = (s: SpanRecord): number => {
    const chain: SpanRecord[] = [];
    let at: SpanRecord | null = s;
    let found = 0;
    while (at !== null) {
      const known = agentOf.get(at.spanId);
      if (known !== undefined) {
        found = known;
        break;
      }
      const own = indexOf.get(at) ?? folded.get(at);
      if (own !== undefined) {
        found = own;
        chain.push(at);
        break;
      }
      chain.push(at);
      at = up(at);
      if (chain.length > spans.length) break;
    }
    for (const c of chain) agentOf.set(c.spanId, found);
    return found;
  };
  for (const s of spans) resolve(s);
  return { spans, root, parentOf, kinds, agents, agentOf, agentSpans: new Set([...indexOf.keys()].map((s) => s.spanId)), setAside };
}

/** A tool name as compared: lower case, runs of anything but letters and digits as one `_`. */
const toolKey = (name: string) => name.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '_').replace(/^_|_$/g, '');

/** The agent a handoff tool names (`handoff_to_X`, `transfer_to_X`, `handoff to X`), else null. */
function handoffTarget(toolName: string): string | null {
  const m = /^(?:handoff|transfer)_to_(.+)$/.exec(toolKey(toolName));
  return m ? m[1]! : null;
}

/** LangChain's run metadata (OpenInference `metadata`, JSON) as an object, or null. */
function langChainMetadata(span: SpanRecord): Record<string, unknown> | null {
  const raw = str(span.attributes[OI.METADATA]);
  if (raw === null) return null;
  try {
    const parsed: unknown = JSON.parse(raw);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * LangGraph (OpenInference LangChain) sends no agent spans: an agent is a node of the graph, a
 * span whose `metadata.langgraph_node` is its own name, right under the graph's span (which has no
 * `langgraph_node`), with a model call below it. The graph's plumbing (`__start__`, the node's own
 * sub-graph, `agent`, `tools`, `RunnableSequence`, …) stays as steps.
 */
function promoteGraphNodes(spans: SpanRecord[], byId: Map<string, SpanRecord>, parentOf: Map<string, string | null>, kinds: Map<SpanRecord, SpanKind>): void {
  const nodeOf = (s: SpanRecord) => {
    const v = langChainMetadata(s)?.langgraph_node;
    return typeof v === 'string' ? v : null;
  };
  const candidates = new Set<string>();
  for (const s of spans) {
    if (kinds.get(s) !== 'step' || nodeOf(s) !== s.name) continue;
    const parent = byId.get(parentOf.get(s.spanId) ?? '');
    if (parent && nodeOf(parent) === null) candidates.add(s.spanId);
  }
  if (candidates.size === 0) return;
  for (const s of spans) {
    if (kinds.get(s) !== 'chat') continue;
    const seen = new Set<string>();
    for (let p = parentOf.get(s.spanId) ?? null; p !== null && !seen.has(p); p = parentOf.get(p) ?? null) {
      seen.add(p);
      if (candidates.has(p)) {
        kinds.set(byId.get(p)!, 'agent');
        break;
      }
    }
  }
}

/**
 * OpenInference: an AGENT span with no `graph.node.id` above AGENT spans that carry one is the
 * trace's workflow (OpenAI Agents' trace name), not an agent; it is kept as a step.
 */
function demoteWorkflows(spans: SpanRecord[], byId: Map<string, SpanRecord>, parentOf: Map<string, string | null>, kinds: Map<SpanRecord, SpanKind>): void {
  const oiAgent = (s: SpanRecord) => kinds.get(s) === 'agent' && str(s.attributes[OI.OPENINFERENCE_SPAN_KIND])?.toUpperCase() === 'AGENT';
  const nodeId = (s: SpanRecord) => str(s.attributes[OI.GRAPH_NODE_ID]) !== null;
  for (const s of spans) {
    if (!oiAgent(s) || !nodeId(s)) continue;
    const seen = new Set<string>();
    for (let p = parentOf.get(s.spanId) ?? null; p !== null && !seen.has(p); p = parentOf.get(p) ?? null) {
      seen.add(p);
      const at = byId.get(p);
      if (at && oiAgent(at) && !nodeId(at)) kinds.set(at, 'step');
    }
  }
}

function isDescendantAgent(candidate: SpanRecord, of: SpanRecord, links: Map<SpanRecord, { parent: SpanRecord | null }>): boolean {
  let at: SpanRecord | null = candidate;
  const seen = new Set<SpanRecord>();
  while (at !== null && !seen.has(at)) {
    if (at === of) return true;
    seen.add(at);
    at = links.get(at)?.parent ?? null;
  }
  return false;
}

/** Siblings (same parent, not handoffs) whose times overlapped share a marker. */
function markParallel(agents: AgentNode[]): void {
  const groups = new Map<number, number[]>();
  agents.forEach((a, i) => {
    if (a.parent === null || a.entered === 'handoff' || !a.span) return;
    groups.set(a.parent, [...(groups.get(a.parent) ?? []), i]);
  });
  for (const [parent, children] of groups) {
    const sorted = [...children].sort((x, y) => byStart(agents[x]!.span!, agents[y]!.span!));
    let cluster: number[] = [];
    let end = -1n;
    let k = 0;
    const close = () => {
      if (cluster.length > 1) {
        const group = `${parent}.${k++}`;
        for (const i of cluster) agents[i]!.parallelGroup = group;
      }
      cluster = [];
    };
    for (const i of sorted) {
      const s = agents[i]!.span!;
      if (cluster.length > 0 && s.startNs >= end) close();
      cluster.push(i);
      end = s.endNs > end ? s.endNs : end;
    }
    close();
  }
}
