/**
 * A run as a tree of agents for the replay: each agent with its rollup, its own bars (model calls,
 * tool calls, waits, events) and the agents it called, in the order the run made them. Pure: the span
 * tree component only draws the rows `visibleRows` returns and keeps which agents are open.
 *
 * Agents here are the run's agent instances (an agent called twice is two nodes); `colourKey` is the
 * agent's path, so every instance of the same agent — and its node in the agent graph — shares one
 * colour (lib/charts/agent-graph.ts numbers the paths).
 */
import { packWaterfall, unpackWaterfall, type PackedWaterfall, type WaterfallBar } from './waterfall';
import type { Agent } from '../harness/browser';

/** How an agent came to run: the run's first agent, a handoff, called as a tool, or delegated to. */
export type AgentEntered = 'root' | 'handoff' | 'tool' | 'delegate';

/** What an agent did, summed over its own calls (not its sub-agents'); null parts are unknown. */
export interface AgentRollup {
  modelCalls: number;
  toolCalls: number;
  inputTokens: number | null;
  outputTokens: number | null;
  /** USD, or null when a call's price is unknown (`costNote` says why). */
  costUsd: number | null;
  costNote: string | null;
  latencyMs: number | null;
  /** How it ended: DONE, FAILED, or a termination reason; null while running or not recorded. */
  ended: string | null;
}

/** One agent instance of a run, as the replay needs it. `id` is its index in the run's agent list. */
export interface AgentView {
  id: number;
  name: string;
  /** Names from the root agent down to this one. */
  path: string[];
  parent: number | null;
  entered: AgentEntered;
  /** It ran beside a sibling (a parallel branch). */
  parallel: boolean;
  rollup: AgentRollup;
}

/** How an agent ended, in the replay's words: DONE, FAILED (why), handed off (to whom); null: it did not end. */
export function endedOf(rollup: Pick<Agent['rollup'], 'outcome' | 'outcomeDetail'>): string | null {
  const why = rollup.outcomeDetail.trim();
  switch (rollup.outcome) {
    case 'completed':
      return 'DONE';
    case 'failed':
      return why ? `FAILED (${why})` : 'FAILED';
    case 'handed_off':
      return why ? `handed off (${why})` : 'handed off';
    default:
      return null;
  }
}

/** The stored agents (lib/harness/agents.ts agentsOf) as the replay draws them. */
export function agentViewsOf(agents: readonly Agent[]): AgentView[] {
  return agents.map((a, id) => ({
    id,
    name: a.name,
    path: a.path,
    parent: a.parent,
    entered: a.entered,
    parallel: a.parallelGroup !== null,
    rollup: {
      modelCalls: a.rollup.modelCalls,
      toolCalls: a.rollup.toolCalls,
      inputTokens: a.rollup.inputTokens,
      outputTokens: a.rollup.outputTokens,
      costUsd: a.rollup.costUsd,
      costNote: a.rollup.costNote || null,
      latencyMs: a.rollup.latencyMs,
      ended: endedOf(a.rollup),
    },
  }));
}

/** A waterfall bar and the agent that made it (null: the run's first agent). */
export type AgentBar = WaterfallBar & { agent?: number | null };

/** Where an agent sits among its siblings (its earliest bar anywhere below it; null: none) and the step it moves the replay to. */
export interface AgentPlace {
  order: number | null;
  firstStep: number | null;
}

export type SpanTreeNode =
  | { kind: 'agent'; key: string; agent: AgentView; colourKey: string; children: SpanTreeNode[]; firstStep: number | null; order: number }
  | { kind: 'bar'; key: string; bar: AgentBar; colourKey: string; order: number };

/** The path of an agent written as the pages show it: `planner › inventory-checker`. */
export const pathLabel = (path: readonly string[]) => path.join(' › ');

/**
 * The tree: root agents (normally one) with their bars and sub-agents as children, ordered by
 * trajectory position (a sub-agent sits where its first bar is). A bar naming an agent the run does
 * not list goes to the first root agent, so no bar is ever dropped; an agent whose parent is missing
 * or would make a cycle becomes a root. `places` (from `spanTreeStart`) gives agents their place in the
 * whole run when `bars` are only some of its bars.
 */
export function buildSpanTree(agents: readonly AgentView[], bars: readonly AgentBar[], places?: ReadonlyMap<number, AgentPlace>): SpanTreeNode[] {
  if (agents.length === 0) return [];
  const byId = new Map(agents.map((a) => [a.id, a]));
  const parentOf = (a: AgentView): number | null => {
    if (a.parent === null || !byId.has(a.parent)) return null;
    // Walk up: a cycle through this agent makes it a root.
    const seen = new Set<number>([a.id]);
    for (let p: number | null = a.parent; p !== null; p = byId.get(p)?.parent ?? null) {
      if (seen.has(p)) return null;
      seen.add(p);
      if (!byId.has(p)) break;
    }
    return a.parent;
  };
  const nodes = new Map<number, Extract<SpanTreeNode, { kind: 'agent' }>>();
  for (const a of agents) nodes.set(a.id, { kind: 'agent', key: `agent-${a.id}`, agent: a, colourKey: pathLabel(a.path), children: [], firstStep: null, order: Number.POSITIVE_INFINITY });
  const roots: Extract<SpanTreeNode, { kind: 'agent' }>[] = [];
  for (const a of agents) {
    const p = parentOf(a);
    if (p === null) roots.push(nodes.get(a.id)!);
    else nodes.get(p)!.children.push(nodes.get(a.id)!);
  }
  const fallback = roots[0]!;
  for (const b of bars) {
    const owner = (b.agent !== undefined && b.agent !== null ? nodes.get(b.agent) : undefined) ?? fallback;
    owner.children.push({ kind: 'bar', key: `bar-${b.index}`, bar: b, colourKey: owner.colourKey, order: b.index });
  }
  // An agent's place is its earliest bar anywhere below it; one with no bar keeps its listed order after them.
  const settle = (n: Extract<SpanTreeNode, { kind: 'agent' }>): number => {
    let first = Number.POSITIVE_INFINITY;
    let firstStep: number | null = null;
    for (const c of n.children) {
      const o = c.kind === 'agent' ? settle(c) : c.order;
      if (o < first) {
        first = o;
        firstStep = c.kind === 'agent' ? c.firstStep : c.bar.step;
      }
    }
    const known = places?.get(n.agent.id);
    n.order = known ? (known.order ?? Number.POSITIVE_INFINITY) : first;
    n.firstStep = known ? known.firstStep : firstStep;
    n.children.sort(byOrder);
    return n.order;
  };
  roots.forEach(settle);
  return roots.sort(byOrder);
}

function byOrder(a: SpanTreeNode, b: SpanTreeNode): number {
  if (a.order !== b.order) return a.order - b.order;
  // Same place (agents without bars): listed order.
  const ia = a.kind === 'agent' ? a.agent.id : -1;
  const ib = b.kind === 'agent' ? b.agent.id : -1;
  return ia - ib;
}

/** A row of the tree as drawn, with what the ARIA tree pattern needs. */
export interface SpanTreeRow {
  node: SpanTreeNode;
  /** 1-based depth. */
  level: number;
  posInSet: number;
  setSize: number;
  parentKey: string | null;
  /** An agent row: whether its children are shown. Bars: undefined. */
  expanded: boolean | undefined;
}

/** The rows shown when the agents whose keys are in `open` are expanded, in drawing order. */
export function visibleRows(roots: readonly SpanTreeNode[], open: ReadonlySet<string>): SpanTreeRow[] {
  const rows: SpanTreeRow[] = [];
  const walk = (list: readonly SpanTreeNode[], level: number, parentKey: string | null) => {
    list.forEach((node, i) => {
      const isAgent = node.kind === 'agent';
      const expanded = isAgent ? open.has(node.key) : undefined;
      rows.push({ node, level, posInSet: i + 1, setSize: list.length, parentKey, expanded });
      if (isAgent && expanded) walk(node.children, level + 1, node.key);
    });
  };
  walk(roots, 1, null);
  return rows;
}

/** Every agent key of the tree (to open them all). */
export function agentKeys(roots: readonly SpanTreeNode[]): string[] {
  const out: string[] = [];
  const walk = (list: readonly SpanTreeNode[]) => {
    for (const n of list)
      if (n.kind === 'agent') {
        out.push(n.key);
        walk(n.children);
      }
  };
  walk(roots);
  return out;
}

/** Rows past which the tree opens only its root agents at first, so a 5,000-span run draws at once. */
export const OPEN_ALL_UP_TO = 400;

/** The agents open when the tree is first drawn: all of them for a small run, only the roots for a big one. */
export function initiallyOpen(roots: readonly SpanTreeNode[], bars: number): Set<string> {
  return new Set(bars <= OPEN_ALL_UP_TO ? agentKeys(roots) : roots.map((r) => r.key));
}

/** The keys of the agents above the node with key `key` (to open the way to it). */
export function ancestorsOf(roots: readonly SpanTreeNode[], key: string): string[] {
  const trail: string[] = [];
  const walk = (list: readonly SpanTreeNode[]): boolean => {
    for (const n of list) {
      if (n.key === key) return true;
      if (n.kind === 'agent') {
        trail.push(n.key);
        if (walk(n.children)) return true;
        trail.pop();
      }
    }
    return false;
  };
  return walk(roots) ? [...trail] : [];
}

/**
 * Where a key press moves focus in the tree (the WAI-ARIA tree pattern): up/down to the previous or
 * next row, Home/End to the first or last, right opens a closed agent or goes to its first child,
 * left closes an open agent or goes to the parent. Returns the row to focus and the agent to toggle.
 */
export function treeKey(rows: readonly SpanTreeRow[], at: number, key: string): { focus: number; toggle: string | null } | null {
  const row = rows[at];
  if (!row) return null;
  switch (key) {
    case 'ArrowDown':
      return { focus: Math.min(rows.length - 1, at + 1), toggle: null };
    case 'ArrowUp':
      return { focus: Math.max(0, at - 1), toggle: null };
    case 'Home':
      return { focus: 0, toggle: null };
    case 'End':
      return { focus: rows.length - 1, toggle: null };
    case 'ArrowRight':
      if (row.expanded === false) return { focus: at, toggle: row.node.key };
      if (row.expanded === true && rows[at + 1]?.parentKey === row.node.key) return { focus: at + 1, toggle: null };
      return { focus: at, toggle: null };
    case 'ArrowLeft': {
      if (row.expanded === true) return { focus: at, toggle: row.node.key };
      const parent = row.parentKey === null ? -1 : rows.findIndex((r) => r.node.key === row.parentKey);
      return { focus: parent >= 0 ? parent : at, toggle: null };
    }
    default:
      return null;
  }
}

/** "2 model calls · 1 tool call · 1,234 tokens · $0.0012 · 1.2 s · DONE" parts of an agent's rollup. */
export function rollupParts(r: AgentRollup, formatMs: (ms: number) => string): string[] {
  const n = (count: number, what: string) => `${count.toLocaleString('en')} ${what}${count === 1 ? '' : 's'}`;
  const tokens = r.inputTokens !== null && r.outputTokens !== null ? `${(r.inputTokens + r.outputTokens).toLocaleString('en')} tokens` : 'tokens unknown';
  const cost = r.costUsd === null ? 'cost unknown' : r.costUsd === 0 ? '$0' : `$${r.costUsd < 0.0001 ? r.costUsd.toExponential(2) : r.costUsd.toFixed(4)}`;
  return [n(r.modelCalls, 'model call'), n(r.toolCalls, 'tool call'), tokens, cost, r.latencyMs === null ? 'latency not recorded' : formatMs(r.latencyMs), r.ended ?? 'did not end'];
}

/**
 * The span tree as first drawn, small enough to go with the page's HTML (issue 31): the bars of the
 * rows shown at first (every bar of a small run; only the root agents' own of a big one), each agent's
 * place in the whole run (so its row stands where the whole tree puts it), the axis and how many bars
 * the run has. `treeOfStart` builds from it the tree whose first rows are the whole tree's first rows;
 * the replay draws them at once and swaps in the whole tree when its waterfall has arrived.
 */
export interface SpanTreeStart {
  /** The bars in the waterfall's wire form, their place on the axis as their recorded span (as objects, a big run's ~250 were ~60 KB of the page). */
  bars: PackedWaterfall;
  /** Positions in `bars` of the bars laid in order (their start not recorded). */
  ordered: number[];
  places: Array<{ agent: number } & AgentPlace>;
  axisMs: number;
  barCount: number;
}

/**
 * `bars` are the whole waterfall's, or — given `whole`, the places of every agent in the whole run and
 * its bar count — only those of the root agents (`rootAgentIds`), which are all a big run shows at first.
 */
export function spanTreeStart(agents: readonly AgentView[], bars: readonly AgentBar[], axisMs: number, whole?: { places: ReadonlyMap<number, AgentPlace>; barCount: number }): SpanTreeStart {
  const roots = buildSpanTree(agents, bars, whole?.places);
  const barCount = whole?.barCount ?? bars.length;
  const shown: AgentBar[] = [];
  for (const row of visibleRows(roots, initiallyOpen(roots, barCount))) if (row.node.kind === 'bar') shown.push(row.node.bar);
  shown.sort((a, b) => a.index - b.index);
  // A row draws its bar where the waterfall put it: sent as the entry's span on the axis (a simulated latency is the waterfall's, not the tree's).
  const entries = shown.map(({ offsetMs, widthMs, placement: _placement, simulatedMs: _simulated, ...b }) => ({ ...b, recorded: { startMs: offsetMs, endMs: offsetMs + widthMs } }));
  const places: SpanTreeStart['places'] = [];
  const walk = (list: readonly SpanTreeNode[]) => {
    for (const n of list)
      if (n.kind === 'agent') {
        places.push({ agent: n.agent.id, order: Number.isFinite(n.order) ? n.order : null, firstStep: n.firstStep });
        walk(n.children);
      }
  };
  walk(roots);
  return {
    bars: packWaterfall(entries),
    ordered: shown.flatMap((b, i) => (b.placement === 'ordered' ? [i] : [])),
    places,
    axisMs,
    barCount,
  };
}

/** The agents the tree starts from (no parent in the run, or a parent that would make a cycle). */
export function rootAgentIds(agents: readonly AgentView[]): number[] {
  return buildSpanTree(agents, []).map((n) => (n.kind === 'agent' ? n.agent.id : -1));
}

/**
 * Every agent's place in the whole run from each agent's earliest bar alone (`firsts`: its trajectory
 * position and step; an agent the run does not list is the first root's, as its bars are): the same
 * places the whole waterfall gives, since a place is the earliest bar below an agent.
 */
export function agentPlaces(agents: readonly AgentView[], firsts: readonly { agent: number; index: number; step: number }[]): Map<number, AgentPlace> {
  const bars = firsts.map((f): AgentBar => ({ index: f.index, step: f.step, agent: f.agent, kind: 'span', label: '', durationMs: null, tokens: null, costUsd: null, error: false, offsetMs: 0, widthMs: 0, placement: 'ordered' }));
  const places = new Map<number, AgentPlace>();
  const walk = (list: readonly SpanTreeNode[]) => {
    for (const n of list)
      if (n.kind === 'agent') {
        places.set(n.agent.id, { order: Number.isFinite(n.order) ? n.order : null, firstStep: n.firstStep });
        walk(n.children);
      }
  };
  walk(buildSpanTree(agents, bars));
  return places;
}

/** The tree of a `spanTreeStart` and its bars: opened as `initiallyOpen(roots, start.barCount)` says, its rows are the whole tree's. */
export function treeOfStart(agents: readonly AgentView[], start: SpanTreeStart): { roots: SpanTreeNode[]; bars: AgentBar[] } {
  const ordered = new Set(start.ordered);
  const bars = unpackWaterfall(start.bars).map(({ recorded, ...e }, i): AgentBar => {
    const startMs = recorded?.startMs ?? 0;
    return { ...e, offsetMs: startMs, widthMs: (recorded?.endMs ?? startMs) - startMs, placement: ordered.has(i) ? 'ordered' : 'recorded' };
  });
  return { roots: buildSpanTree(agents, bars, new Map(start.places.map(({ agent, ...place }) => [agent, place]))), bars };
}
