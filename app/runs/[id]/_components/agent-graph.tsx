'use client';
/**
 * The agent graph as SVG: one box per agent path, indented under the agent that called it with a
 * connector, saying how many times and how it was called, its calls, and where the time went (a bar
 * of its share of the run). Names are drawn as SVG text (never markup) and cut to a box's width with
 * the whole name in a tooltip. Each box is a button: it moves the replay to that agent's first step.
 */
import type { KeyboardEvent } from 'react';
import { ENTERED_LABELS, type AgentGraph } from '@/lib/charts/agent-graph';
import { formatDuration } from '@/lib/format/units';
import { agentStyle } from './span-tree';

const ROW_PX = 64;
const BOX_PX = 54;
const INDENT_PX = 26;
const BOX_WIDTH_PX = 268;
const NAME_CHARS = 26;

const cut = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

export function AgentGraphView({ graph, currentKey, onSelect }: { graph: AgentGraph; currentKey: string | null; onSelect: (key: string) => void }) {
  const depth = Math.max(0, ...graph.nodes.map((n) => n.depth));
  const width = depth * INDENT_PX + BOX_WIDTH_PX + 8;
  const height = graph.nodes.length * ROW_PX;
  const byKey = new Map(graph.nodes.map((n) => [n.key, n]));
  const x = (d: number) => 4 + d * INDENT_PX;
  const y = (row: number) => 4 + row * ROW_PX;
  const onKey = (e: KeyboardEvent<SVGGElement>, key: string) => {
    if (e.key !== 'Enter' && e.key !== ' ') return;
    e.preventDefault();
    onSelect(key);
  };
  return (
    <div className="agent-graph" data-testid="agent-graph">
      <svg width={width} height={height + 4} viewBox={`0 0 ${width} ${height + 4}`} role="group" aria-label={`Agent graph: ${graph.nodes.length} agents, ${graph.edges.length} caller–callee links`}>
        {graph.edges.map((e) => {
          const from = byKey.get(e.from);
          const to = byKey.get(e.to);
          if (!from || !to) return null;
          const x0 = x(from.depth) + 10;
          const y0 = y(from.row) + BOX_PX;
          const y1 = y(to.row) + BOX_PX / 2;
          return <path key={`${e.from}>${e.to}`} className="graph-edge" d={`M ${x0} ${y0} V ${y1} H ${x(to.depth)}`} data-testid="graph-edge" data-from={e.from} data-to={e.to} data-count={e.count} />;
        })}
        {graph.nodes.map((n) => {
          const into = graph.edges.find((e) => e.to === n.key);
          const called = into ? `called ${into.count}× · ${into.entered.map((w) => ENTERED_LABELS[w]).join(', ')}` : n.runs > 1 ? `ran ${n.runs}×` : 'first agent';
          const time = n.latencyMs === null ? 'time not recorded' : `${formatDuration(n.latencyMs)}${n.share !== null ? ` · ${Math.round(n.share * 100)}% of the run` : ''}`;
          const label = `${n.key}: ${called}; ${n.modelCalls} model calls, ${n.toolCalls} tool calls; ${time}; ended ${n.ended.join(', ')}`;
          const bx = x(n.depth);
          const by = y(n.row);
          return (
            <g
              key={n.key}
              className={`agent-node agent-coloured${n.key === currentKey ? ' current' : ''}`}
              style={agentStyle(n.colour)}
              role="button"
              tabIndex={0}
              aria-label={label}
              aria-current={n.key === currentKey ? 'true' : undefined}
              data-testid="graph-node"
              data-agent={n.key}
              onClick={() => onSelect(n.key)}
              onKeyDown={(e) => onKey(e, n.key)}
            >
              <title>{label}</title>
              <rect className="node-box" x={bx} y={by} width={BOX_WIDTH_PX} height={BOX_PX} rx={6} />
              <rect className="node-strip" x={bx} y={by} width={6} height={BOX_PX} rx={2} />
              <text className="node-name" x={bx + 14} y={by + 17}>
                {cut(n.name, NAME_CHARS)}
              </text>
              <text className="node-detail" x={bx + 14} y={by + 32}>
                {cut(`${called} · ${n.modelCalls} model, ${n.toolCalls} tool`, 44)}
              </text>
              <text className="node-detail" x={bx + 14} y={by + 46}>
                {cut(time, 44)}
              </text>
              {n.share !== null ? <rect className="node-share" x={bx + 6} y={by + BOX_PX - 4} width={Math.max(2, (BOX_WIDTH_PX - 6) * n.share)} height={4} /> : null}
            </g>
          );
        })}
      </svg>
    </div>
  );
}
