'use client';
/**
 * The replay's views of a run of several agents: the span tree beside the waterfall, the agent graph,
 * and the state machine of one agent at a time (the agent of the frame on screen, or one picked).
 * A single-agent run (the Stockroom harness's own) shows none of them: its replay reads as before.
 */
import { useMemo } from 'react';
import { buildSpanTree, pathLabel, treeOfStart, type AgentBar, type AgentView, type SpanTreeStart } from '@/lib/charts/agent-tree';
import { MermaidDiagram } from '@/components/mermaid-diagram';
import { stateDiagramSource } from '@/lib/charts/state-diagram';
import { agentStateAt } from '@/lib/charts/agent-frames';
import type { TimelineTransition } from '@/lib/charts/replay-timeline';
import { SpanTree, agentStyle, type SpanTreeData } from './span-tree';
import { useWholeWaterfall } from './waterfall';

/** A run's agents as the replay gets them from the page (absent for a single-agent run). */
export interface ReplayAgents {
  views: AgentView[];
  /** The agent of each transition of the replay's log (lib/charts/agent-frames.ts mergeAgentTransitions). */
  agentOf: number[];
  runDurationMs: number | null;
  /** The span tree's first rows, shaped on the server so they come with the page's HTML (null: drawn once the waterfall has loaded). */
  treeStart?: SpanTreeStart | null;
}

/**
 * The span tree: its first rows from the page (in the HTML, so they are there and work as soon as the
 * page is hydrated), then the whole tree once the run's waterfall has loaded; an agent opened before
 * then shows its calls when they arrive.
 */
export function SpanTreePanel({
  runId,
  agents,
  start = null,
  colours,
  currentStep,
  following,
  onSelectStep,
}: {
  runId: string;
  agents: readonly AgentView[];
  start?: SpanTreeStart | null;
  colours: ReadonlyMap<string, number>;
  currentStep: number;
  following: boolean;
  onSelectStep: (step: number, agent: number | null) => void;
}) {
  const w = useWholeWaterfall(runId, following);
  const whole = useMemo<SpanTreeData | null>(() => {
    if (!w || 'error' in w) return null;
    const bars = w.bars as AgentBar[];
    return { roots: buildSpanTree(agents, bars), bars, axisMs: w.axisMs, barCount: bars.length };
  }, [w, agents]);
  const first = useMemo<SpanTreeData | null>(() => (start ? { ...treeOfStart(agents, start), axisMs: start.axisMs, barCount: start.barCount } : null), [agents, start]);
  const tree = whole ?? first;
  const error =
    w && 'error' in w ? (
      <p className="alert error" role="alert">
        The span tree could not be loaded: {w.error}
      </p>
    ) : null;
  if (!tree) return error ?? <p className="muted small">Loading the span tree…</p>;
  return (
    <>
      {error}
      <SpanTree agents={agents} tree={tree} partial={whole === null && tree.bars.length < tree.barCount} colours={colours} currentStep={currentStep} onSelectStep={onSelectStep} />
    </>
  );
}

/** The state machine of one agent at the replay's frame; `picked` null follows the frame's agent. */
export function AgentStateMachine({
  agents,
  transitions,
  agentOf,
  frame,
  picked,
  onPick,
  colours,
}: {
  agents: readonly AgentView[];
  transitions: readonly TimelineTransition[];
  agentOf: readonly number[];
  frame: number;
  picked: number | null;
  onPick: (agent: number | null) => void;
  colours: ReadonlyMap<string, number>;
}) {
  const shown = picked ?? agentOf[frame] ?? 0;
  const agent = agents.find((a) => a.id === shown) ?? agents[0];
  const { state, source } = useMemo(() => {
    const at = agentStateAt(transitions, agentOf, frame, shown);
    return { state: at, source: stateDiagramSource({ current: at.current, taken: at.taken, last: at.last }) };
  }, [transitions, agentOf, frame, shown]);
  const name = agent ? pathLabel(agent.path) : 'agent';
  return (
    <>
      <div className="row small" style={{ alignItems: 'center' }}>
        <label htmlFor="state-agent">Agent</label>
        <select id="state-agent" value={picked === null ? 'follow' : String(picked)} onChange={(e) => onPick(e.target.value === 'follow' ? null : Number(e.target.value))} data-testid="state-agent" style={{ maxWidth: '100%' }}>
          <option value="follow">the agent at this point ({name})</option>
          {agents.map((a) => (
            <option key={a.id} value={a.id}>
              {pathLabel(a.path)}
              {agents.filter((b) => pathLabel(b.path) === pathLabel(a.path)).length > 1 ? ` (#${a.id})` : ''}
            </option>
          ))}
        </select>
        <span className="agent-coloured row" style={agentStyle(colours.get(name) ?? 0)} data-testid="state-agent-name">
          <span className="agent-swatch" aria-hidden="true" /> {name}: {state.current ?? 'not started yet'}
        </span>
      </div>
      <MermaidDiagram source={source} label={`State diagram of agent ${name}, current state ${state.current ?? 'not started'}`} />
    </>
  );
}
