import { describe, expect, it } from 'vitest';
import { agentViewsOf, ancestorsOf, buildSpanTree, initiallyOpen, OPEN_ALL_UP_TO, rollupParts, spanTreeStart, treeKey, treeOfStart, visibleRows, type AgentBar, type AgentView, type SpanTreeNode } from './agent-tree';

const rollup = { modelCalls: 0, toolCalls: 0, inputTokens: 0, outputTokens: 0, costUsd: 0, costNote: null, latencyMs: 0, ended: 'DONE' };
const agent = (id: number, path: string[], parent: number | null, extra: Partial<AgentView> = {}): AgentView => ({
  id,
  name: path[path.length - 1]!,
  path,
  parent,
  entered: parent === null ? 'root' : 'delegate',
  parallel: false,
  rollup,
  ...extra,
});
const bar = (index: number, step: number, agentId: number | null, kind: AgentBar['kind'] = 'model'): AgentBar => ({
  index,
  step,
  kind,
  label: `${kind} ${index}`,
  durationMs: 10,
  tokens: null,
  costUsd: null,
  error: false,
  offsetMs: index * 10,
  widthMs: 10,
  placement: 'recorded',
  agent: agentId,
});

// The trace: the planner calls inventory-checker (two model calls, its own tool), then its own tool, then answers.
const planner = agent(0, ['planner'], null);
const checker = agent(1, ['planner', 'inventory-checker'], 0, { entered: 'tool' });
const bars = [bar(0, 1, 0), bar(1, 2, 1), bar(2, 2, 1, 'tool'), bar(3, 3, 1), bar(4, 4, 0, 'tool'), bar(5, 5, 0)];

describe('the span tree', () => {
  it('nests each bar under the agent that made it, and the sub-agent where it first ran', () => {
    const [root] = buildSpanTree([planner, checker], bars);
    expect(root?.kind).toBe('agent');
    if (root?.kind !== 'agent') return;
    expect(root.children.map((c) => c.key)).toEqual(['bar-0', 'agent-1', 'bar-4', 'bar-5']);
    const sub = root.children[1]!;
    expect(sub.kind === 'agent' && sub.children.map((c) => c.key)).toEqual(['bar-1', 'bar-2', 'bar-3']);
    expect(sub.kind === 'agent' && sub.firstStep).toBe(2);
    expect(root.firstStep).toBe(1);
  });

  it('colours every instance of an agent by its path', () => {
    const again = agent(2, ['planner', 'inventory-checker'], 0);
    const roots = buildSpanTree([planner, checker, again], [...bars, bar(6, 6, 2)]);
    const rows = visibleRows(roots, new Set(['agent-0', 'agent-1', 'agent-2']));
    const keys = rows.filter((r) => r.node.kind === 'agent' && r.node.agent.name === 'inventory-checker').map((r) => r.node.colourKey);
    expect(keys).toEqual(['planner › inventory-checker', 'planner › inventory-checker']);
    expect(rows.find((r) => r.node.key === 'bar-6')?.node.colourKey).toBe('planner › inventory-checker');
  });

  it('never drops a bar: one naming no known agent goes to the first agent', () => {
    const roots = buildSpanTree([planner], [bar(0, 1, 7), bar(1, 1, null), bar(2, 2, undefined as unknown as null)]);
    const rows = visibleRows(roots, new Set(['agent-0']));
    expect(rows.filter((r) => r.node.kind === 'bar')).toHaveLength(3);
  });

  it('makes an agent whose parent is missing, or which sits in a cycle, a root instead of losing it', () => {
    const a = agent(0, ['a'], 1);
    const b = agent(1, ['b'], 0);
    const orphan = agent(2, ['c'], 9);
    const roots = buildSpanTree([a, b, orphan], []);
    expect(roots.map((r) => r.key).sort()).toEqual(['agent-0', 'agent-1', 'agent-2']);
  });

  it('lists a single-agent run as one agent holding every bar', () => {
    const roots = buildSpanTree([agent(0, ['stockroom'], null)], bars.map((b) => ({ ...b, agent: undefined })));
    expect(roots).toHaveLength(1);
    expect(visibleRows(roots, new Set(['agent-0']))).toHaveLength(1 + bars.length);
  });
});

describe('the rows drawn', () => {
  const roots = buildSpanTree([planner, checker], bars);

  it('hide a closed agent’s children and give each row its level, position and set size', () => {
    const closed = visibleRows(roots, new Set(['agent-0']));
    expect(closed.map((r) => [r.node.key, r.level, r.posInSet, r.setSize, r.expanded])).toEqual([
      ['agent-0', 1, 1, 1, true],
      ['bar-0', 2, 1, 4, undefined],
      ['agent-1', 2, 2, 4, false],
      ['bar-4', 2, 3, 4, undefined],
      ['bar-5', 2, 4, 4, undefined],
    ]);
    const open = visibleRows(roots, new Set(['agent-0', 'agent-1']));
    expect(open.map((r) => r.node.key)).toEqual(['agent-0', 'bar-0', 'agent-1', 'bar-1', 'bar-2', 'bar-3', 'bar-4', 'bar-5']);
    expect(open[3]).toMatchObject({ level: 3, parentKey: 'agent-1' });
  });

  it('open everything for a small run and only the roots for a big one', () => {
    expect([...initiallyOpen(roots, bars.length)].sort()).toEqual(['agent-0', 'agent-1']);
    expect([...initiallyOpen(roots, OPEN_ALL_UP_TO + 1)]).toEqual(['agent-0']);
  });

  it('find the agents to open on the way to a bar', () => {
    expect(ancestorsOf(roots, 'bar-2')).toEqual(['agent-0', 'agent-1']);
    expect(ancestorsOf(roots, 'bar-5')).toEqual(['agent-0']);
    expect(ancestorsOf(roots, 'nothing')).toEqual([]);
  });
});

describe('the tree as first drawn, sent with the page', () => {
  // What a row shows, agents with the step they move the replay to.
  const drawn = (roots: readonly SpanTreeNode[], bars: number) =>
    visibleRows(roots, initiallyOpen(roots, bars)).map((r) => [r.node.key, r.level, r.posInSet, r.setSize, r.expanded, r.node.kind === 'agent' ? r.node.firstStep : r.node.bar.label]);
  // A big run: the root's own bars between its sub-agents', which start late and interleave; one sub-agent made no call; one bar names no known agent.
  const agents = [planner, checker, agent(2, ['planner', 'pricer'], 0), agent(3, ['planner', 'pricer', 'quoter'], 2), agent(4, ['planner', 'idle'], 0)];
  const many: AgentBar[] = [];
  for (let i = 0; i <= OPEN_ALL_UP_TO + 50; i++) many.push(bar(i, Math.floor(i / 3), i < 40 ? 0 : i % 7 === 0 ? 3 : i % 5 === 0 ? 2 : i % 2 ? 1 : i === 41 ? 99 : 0));
  const axisMs = (OPEN_ALL_UP_TO + 51) * 10;

  it('sends only the bars of the rows shown at first, and draws from them the whole tree’s first rows', () => {
    const start = spanTreeStart(agents, many, axisMs);
    const whole = buildSpanTree(agents, many);
    expect(start.barCount).toBe(many.length);
    expect(start.axisMs).toBe(axisMs);
    // Through the page's payload (JSON): an agent without any call has no place (null), not Infinity.
    const sent = JSON.parse(JSON.stringify(start)) as typeof start;
    expect(sent.places.find((p) => p.agent === 4)).toEqual({ agent: 4, order: null, firstStep: null });
    const first = treeOfStart(agents, sent);
    expect(first.bars.length).toBeLessThan(many.length / 2);
    expect(first.bars.every((b) => (b.agent ?? 0) === 0 || b.agent === 99)).toBe(true);
    expect(drawn(first.roots, sent.barCount)).toEqual(drawn(whole, many.length));
  });

  it('places each sub-agent where the whole run puts it, not where its few sent bars would', () => {
    const start = spanTreeStart(agents, many, axisMs);
    // Without the places, the closed sub-agents (none of their bars sent) would sink below the root's bars.
    expect(drawn(buildSpanTree(agents, treeOfStart(agents, start).bars), start.barCount)).not.toEqual(drawn(buildSpanTree(agents, many), many.length));
  });

  it('sends every bar of a small run, all agents open, each where the waterfall put it, without what only the waterfall shows', () => {
    // One bar laid in order, its length not recorded.
    const placed: AgentBar[] = [...bars.slice(0, 5), { ...bar(5, 5, 0), durationMs: null, widthMs: 0, offsetMs: 61.5, placement: 'ordered' }];
    const sent = placed.map((b) => ({ ...b, recorded: b.placement === 'recorded' ? { startMs: b.offsetMs, endMs: b.offsetMs + 10 } : null, simulatedMs: 3 }));
    const start = JSON.parse(JSON.stringify(spanTreeStart([planner, checker], sent, 70))) as ReturnType<typeof spanTreeStart>;
    const first = treeOfStart([planner, checker], start);
    expect(first.bars).toEqual(placed);
    expect(drawn(first.roots, start.barCount)).toEqual(drawn(buildSpanTree([planner, checker], placed), placed.length));
  });
});

describe('keys in the tree', () => {
  const roots = buildSpanTree([planner, checker], bars);
  const open = visibleRows(roots, new Set(['agent-0', 'agent-1']));
  const closed = visibleRows(roots, new Set(['agent-0']));

  it('move up and down, to the first and the last row, and stop at the ends', () => {
    expect(treeKey(open, 0, 'ArrowDown')).toEqual({ focus: 1, toggle: null });
    expect(treeKey(open, 0, 'ArrowUp')).toEqual({ focus: 0, toggle: null });
    expect(treeKey(open, 3, 'End')).toEqual({ focus: open.length - 1, toggle: null });
    expect(treeKey(open, 3, 'Home')).toEqual({ focus: 0, toggle: null });
    expect(treeKey(open, open.length - 1, 'ArrowDown')).toEqual({ focus: open.length - 1, toggle: null });
  });

  it('open a closed agent with right, then step into it; close with left, then go to the parent', () => {
    expect(treeKey(closed, 2, 'ArrowRight')).toEqual({ focus: 2, toggle: 'agent-1' });
    expect(treeKey(open, 2, 'ArrowRight')).toEqual({ focus: 3, toggle: null });
    expect(treeKey(open, 2, 'ArrowLeft')).toEqual({ focus: 2, toggle: 'agent-1' });
    expect(treeKey(open, 4, 'ArrowLeft')).toEqual({ focus: 2, toggle: null });
    expect(treeKey(open, 0, 'ArrowLeft')).toEqual({ focus: 0, toggle: 'agent-0' });
  });

  it('leave other keys alone', () => {
    expect(treeKey(open, 0, 'a')).toBeNull();
    expect(treeKey(open, 99, 'ArrowDown')).toBeNull();
  });
});

describe('an agent’s rollup', () => {
  it('says unknown, never 0, for what was not recorded', () => {
    const parts = rollupParts({ modelCalls: 2, toolCalls: 1, inputTokens: 100, outputTokens: 20, costUsd: null, costNote: 'no price for gemini-9', latencyMs: null, ended: null }, (ms) => `${ms} ms`);
    expect(parts).toEqual(['2 model calls', '1 tool call', '120 tokens', 'cost unknown', 'latency not recorded', 'did not end']);
    expect(rollupParts({ ...rollup, modelCalls: 1, costUsd: 0.0018, latencyMs: 1200 }, (ms) => `${ms} ms`)).toEqual(['1 model call', '0 tool calls', '0 tokens', '$0.0018', '1200 ms', 'DONE']);
  });
});

describe('the stored agents as the replay draws them', () => {
  it('keep the tree, the rollup and how each agent ended, unknown cost as null', () => {
    const stored = [
      { id: 's1', name: 'planner', path: ['planner'], parent: null, entered: 'root' as const, parallelGroup: null, transitions: [], rollup: { modelCalls: 2, toolCalls: 1, inputTokens: 10, outputTokens: 4, costUsd: 0.0018, costNote: '', latencyMs: 900, outcome: 'completed' as const, outcomeDetail: 'COMPLETED' } },
      { id: 's2', name: 'checker', path: ['planner', 'checker'], parent: 0, entered: 'tool' as const, parallelGroup: 'g1', transitions: [], rollup: { modelCalls: 1, toolCalls: 0, inputTokens: 3, outputTokens: 1, costUsd: null, costNote: 'no price for gemini-9', latencyMs: null, outcome: 'failed' as const, outcomeDetail: 'MODEL_ERROR' } },
      { id: 's3', name: 'writer', path: ['planner', 'writer'], parent: 0, entered: 'handoff' as const, parallelGroup: null, transitions: [], rollup: { modelCalls: 0, toolCalls: 0, inputTokens: 0, outputTokens: 0, costUsd: 0, costNote: '', latencyMs: 5, outcome: 'unfinished' as const, outcomeDetail: '' } },
    ];
    const views = agentViewsOf(stored);
    expect(views.map((v) => [v.id, v.parent, v.entered, v.parallel, v.rollup.ended])).toEqual([
      [0, null, 'root', false, 'DONE'],
      [1, 0, 'tool', true, 'FAILED (MODEL_ERROR)'],
      [2, 0, 'handoff', false, null],
    ]);
    expect(views[1]!.rollup).toMatchObject({ costUsd: null, costNote: 'no price for gemini-9', latencyMs: null });
    expect(views[0]!.rollup.costNote).toBeNull();
  });
});
