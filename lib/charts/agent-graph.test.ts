import { describe, expect, it } from 'vitest';
import { agentGraph, colourByPath } from './agent-graph';
import type { AgentView } from './agent-tree';

const agent = (id: number, path: string[], parent: number | null, r: Partial<AgentView['rollup']> = {}, entered: AgentView['entered'] = parent === null ? 'root' : 'tool'): AgentView => ({
  id,
  name: path[path.length - 1]!,
  path,
  parent,
  entered,
  parallel: false,
  rollup: { modelCalls: 1, toolCalls: 1, inputTokens: 10, outputTokens: 5, costUsd: null, costNote: null, latencyMs: 100, ended: 'DONE', ...r },
});

describe('the agent graph', () => {
  it('draws one node per agent path and counts how many times a caller called it', () => {
    const g = agentGraph(
      [agent(0, ['planner'], null, { latencyMs: 200 }), agent(1, ['planner', 'checker'], 0), agent(2, ['planner', 'writer'], 0, {}, 'handoff'), agent(3, ['planner', 'checker'], 0, { ended: 'FAILED' })],
      1000,
    );
    expect(g.nodes.map((n) => [n.key, n.depth, n.row, n.runs])).toEqual([
      ['planner', 0, 0, 1],
      ['planner › checker', 1, 1, 2],
      ['planner › writer', 1, 2, 1],
    ]);
    expect(g.edges).toEqual([
      { from: 'planner', to: 'planner › checker', count: 2, entered: ['tool'] },
      { from: 'planner', to: 'planner › writer', count: 1, entered: ['handoff'] },
    ]);
    const checker = g.nodes[1]!;
    expect(checker).toMatchObject({ modelCalls: 2, toolCalls: 2, latencyMs: 200, share: 0.2, ended: ['DONE', 'FAILED'], firstAgent: 1 });
  });

  it('keeps time unknown when one run of an agent did not record it, and with no run duration', () => {
    const g = agentGraph([agent(0, ['a'], null), agent(1, ['a', 'b'], 0, { latencyMs: null }), agent(2, ['a', 'b'], 0)], null);
    expect(g.nodes[1]).toMatchObject({ latencyMs: null, share: null });
    expect(g.nodes[0]!.share).toBeNull();
  });

  it('draws a grandchild under its parent, depth-first in the order the agents ran', () => {
    const g = agentGraph([agent(0, ['a'], null), agent(1, ['a', 'b'], 0), agent(2, ['a', 'c'], 0), agent(3, ['a', 'b', 'd'], 1)], 100);
    expect(g.nodes.map((n) => `${n.depth}:${n.name}`)).toEqual(['0:a', '1:b', '2:d', '1:c']);
    expect([...colourByPath(g).values()]).toEqual([0, 1, 2, 3]);
  });

  it('counts an agent ending the same way twice once, with its count', () => {
    const g = agentGraph([agent(0, ['a'], null), agent(1, ['a', 'b'], 0), agent(2, ['a', 'b'], 0)], 100);
    expect(g.nodes[1]!.ended).toEqual(['DONE ×2']);
  });

  it('never loses an agent whose parent is missing', () => {
    const g = agentGraph([agent(0, ['a'], null), agent(1, ['x', 'y'], 5)], 100);
    expect(g.nodes.map((n) => n.key)).toEqual(['a', 'x › y']);
    expect(g.edges).toEqual([]);
  });
});
