/**
 * The agent graph of a run: one node per agent path (an agent called three times is one node, run
 * three times), an edge from each caller to each agent it called with how many times and how
 * (handoff, as a tool, delegated), and where the time went (each node's own latency and its share of
 * the run). Laid out as an indented tree — one row per node, its depth across — so it reads on a phone
 * as well as a desk; the component draws it as SVG with the names as text, never as markup.
 */
import { pathLabel, type AgentEntered, type AgentView } from './agent-tree';

export interface AgentGraphNode {
  /** The agent's path as the pages write it; also its colour key. */
  key: string;
  name: string;
  depth: number;
  /** Drawing row (0-based), depth-first in the order the agents first ran. */
  row: number;
  /** Colour number (lib/charts/agent-colours.ts `agentColour`). */
  colour: number;
  /** How many times it ran. */
  runs: number;
  modelCalls: number;
  toolCalls: number;
  /** Its own latency summed over its runs; null when one of them was not recorded. */
  latencyMs: number | null;
  /** `latencyMs` as a share of the run's duration (0–1), null when either is unknown. */
  share: number | null;
  /** How its runs ended, with counts: `DONE ×2`. */
  ended: string[];
  /** The first agent instance of this path (clicking the node goes there). */
  firstAgent: number;
}

export interface AgentGraphEdge {
  from: string;
  to: string;
  /** How many times `from` called `to`. */
  count: number;
  entered: AgentEntered[];
}

export interface AgentGraph {
  nodes: AgentGraphNode[];
  edges: AgentGraphEdge[];
}

/**
 * `agents` in the order they ran (the span tree's order); `runDurationMs` null when unknown.
 * An agent whose parent is not listed hangs from nothing (a root of its own).
 */
export function agentGraph(agents: readonly AgentView[], runDurationMs: number | null): AgentGraph {
  const byId = new Map(agents.map((a) => [a.id, a]));
  const nodes = new Map<string, AgentGraphNode & { children: string[]; parentKey: string | null }>();
  const edges = new Map<string, AgentGraphEdge>();
  for (const a of agents) {
    const key = pathLabel(a.path.length > 0 ? a.path : [a.name]);
    const parent = a.parent !== null ? byId.get(a.parent) : undefined;
    const parentKey = parent ? pathLabel(parent.path.length > 0 ? parent.path : [parent.name]) : null;
    let n = nodes.get(key);
    if (!n) {
      n = { key, name: a.name, depth: 0, row: 0, colour: 0, runs: 0, modelCalls: 0, toolCalls: 0, latencyMs: 0, share: null, ended: [], firstAgent: a.id, children: [], parentKey: parentKey === key ? null : parentKey };
      nodes.set(key, n);
    }
    n.runs += 1;
    n.modelCalls += a.rollup.modelCalls;
    n.toolCalls += a.rollup.toolCalls;
    n.latencyMs = n.latencyMs === null || a.rollup.latencyMs === null ? null : n.latencyMs + a.rollup.latencyMs;
    n.ended.push(a.rollup.ended ?? 'did not end');
    if (parentKey !== null && parentKey !== key) {
      const id = `${parentKey}\u0000${key}`;
      const e = edges.get(id) ?? { from: parentKey, to: key, count: 0, entered: [] };
      e.count += 1;
      if (!e.entered.includes(a.entered)) e.entered.push(a.entered);
      edges.set(id, e);
    }
  }
  for (const n of nodes.values()) if (n.parentKey !== null && nodes.has(n.parentKey)) nodes.get(n.parentKey)!.children.push(n.key);
  // Depth-first from the roots, in first-run order; a node reached twice (or in a cycle) is drawn once.
  const ordered: string[] = [];
  const placed = new Set<string>();
  const visit = (key: string, depth: number) => {
    if (placed.has(key)) return;
    placed.add(key);
    const n = nodes.get(key)!;
    n.depth = depth;
    ordered.push(key);
    for (const c of n.children) visit(c, depth + 1);
  };
  for (const n of nodes.values()) if (n.parentKey === null || !nodes.has(n.parentKey)) visit(n.key, 0);
  for (const n of nodes.values()) visit(n.key, 0);
  const run = runDurationMs !== null && Number.isFinite(runDurationMs) && runDurationMs > 0 ? runDurationMs : null;
  return {
    nodes: ordered.map((key, row) => {
      const { children: _c, parentKey: _p, ...n } = nodes.get(key)!;
      return { ...n, row, colour: row, share: n.latencyMs !== null && run !== null ? Math.min(1, n.latencyMs / run) : null, ended: countEach(n.ended) };
    }),
    edges: [...edges.values()],
  };
}

function countEach(values: readonly string[]): string[] {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts].map(([v, c]) => (c === 1 ? v : `${v} ×${c}`));
}

/** The colour number of each agent instance: its path's node in the graph. */
export function colourByPath(graph: AgentGraph): Map<string, number> {
  return new Map(graph.nodes.map((n) => [n.key, n.colour]));
}

/** Words for how an agent was entered, for edge labels and the tree. */
export const ENTERED_LABELS: Record<AgentEntered, string> = {
  root: 'first agent',
  handoff: 'handoff',
  tool: 'called as a tool',
  delegate: 'delegated',
};
