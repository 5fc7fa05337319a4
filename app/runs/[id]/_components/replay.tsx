'use client';
/**
 * The replay player: a slider and previous/next (arrow keys too) over the transitions of the state
 * machine (a harness step is several transitions; see lib/charts/replay-position.ts); at each
 * frame the state diagram, what the model saw, the step's tool calls and guard events, and the
 * token chart with the current call marked.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { buildFrames, callIndexForStep, clampFrame, frameForStep, modelStepForFrame, tokenSeries } from '@/lib/charts/replay-timeline';
import { StepCost, WaterfallChart } from './waterfall';
import { stateDiagramSource } from '@/lib/charts/state-diagram';
import { MermaidDiagram } from '@/components/mermaid-diagram';
import { unpackTimeline, type PackedTimeline } from '@/lib/charts/timeline-codec';
import { EventList } from './event-list';
import { ModelMessages } from './model-messages';
import { StepEntries, stepsQuery } from './step-entries';
import dynamic from 'next/dynamic';
import { TransitionLog } from './transition-log';
import { CopyLinkButton } from '@/components/copy-link-button';
import { isTyping } from '@/components/is-typing';
import { useAfterIdle } from '@/components/use-after-idle';
import { addressForFrame, frameOfPosition, type ReplayPosition } from '@/lib/charts/replay-position';
import { LabelPanel, type LabelSetView } from './label-panel';
import type { LabelView } from '@/components/label-badges';
import { agentGraph, colourByPath } from '@/lib/charts/agent-graph';
import { pathLabel } from '@/lib/charts/agent-tree';
import { firstFrameOfAgent, frameForAgentStep } from '@/lib/charts/agent-frames';
import { AgentStateMachine, SpanTreePanel, type ReplayAgents } from './agents-panel';
import { AgentGraphView } from './agent-graph';
import { fetchJson } from '@/components/fetch-json';
import { timelineUrl } from '../waterfall-url';

// recharts loads after the replay is interactive (the slider, the log and the panels do not wait for a chart).
const TokenChart = dynamic(() => import('./token-chart').then((m) => m.TokenChart), { ssr: false, loading: () => <p className="muted small">Drawing the token chart…</p> });

/** The whole skeleton of a run whose page sent its head only (the same address the page preloads). */
const timelineQuery = (runId: string) => ({
  queryKey: ['timeline', runId],
  queryFn: ({ signal }: { signal: AbortSignal }) => fetchJson<PackedTimeline>(timelineUrl(runId), signal),
  staleTime: Infinity,
});

/** What the label panel needs (absent: no panel). */
export interface ReplayLabelling {
  labelSet: LabelSetView;
  labels: LabelView[];
  canLabel: boolean;
  unverified: string[];
}

/** `initialAt` is where the page was opened (`?transition=N` or `?step=N`; see lib/charts/replay-position.ts). */
export function Replay({
  runId,
  packed,
  rest = null,
  budget,
  terminationReason,
  initialAt = null,
  following = false,
  labelling = null,
  agents = null,
}: {
  runId: string;
  packed: PackedTimeline;
  /**
   * The page sent the head of a long run's skeleton (`packed`): how many transitions and model calls
   * the whole has. The replay starts on the head and fetches the whole at once. Null: `packed` is whole.
   */
  rest?: { transitions: number; calls: number } | null;
  budget: number | null;
  terminationReason: string;
  initialAt?: ReplayPosition;
  /** The run is still running: each time it grows, show its newest step. */
  following?: boolean;
  labelling?: ReplayLabelling | null;
  /** A run of several agents: its agents and the agent of each transition (null: one agent, the replay as it always was). */
  agents?: ReplayAgents | null;
}) {
  const whole = useQuery({ ...timelineQuery(runId), enabled: rest !== null });
  const timeline = useMemo(() => unpackTimeline(whole.data ?? packed), [whole.data, packed]);
  // Until the whole has come, the count is the whole run's and the slider reaches the end of the head.
  const waitingForRest = rest !== null && !whole.data;
  const transitionCount = waitingForRest ? Math.max(rest.transitions, timeline.transitions.length) : timeline.transitions.length;
  const frames = useMemo(() => buildFrames(timeline.transitions), [timeline.transitions]);
  const series = useMemo(() => tokenSeries(timeline.calls, budget), [timeline.calls, budget]);
  const callSteps = useMemo(() => new Set(timeline.calls.map((c) => c.step)), [timeline.calls]);
  const [frame, setFrameRaw] = useState(() => clampFrame(frameOfPosition(frames, initialAt), frames.length));
  const setFrame = useCallback((f: number) => setFrameRaw(clampFrame(f, frames.length)), [frames.length]);
  const current = frames[frame];
  const graph = useMemo(() => (agents ? agentGraph(agents.views, agents.runDurationMs) : null), [agents]);
  const colours = useMemo(() => (graph ? colourByPath(graph) : new Map<string, number>()), [graph]);
  const logged = useMemo(() => frames.map((f) => f.transition), [frames]);
  const [pickedAgent, setPickedAgent] = useState<number | null>(null);
  const frameAgent = agents ? (agents.views.find((a) => a.id === (agents.agentOf[frame] ?? 0)) ?? null) : null;
  const queryClient = useQueryClient();
  // The token chart waits for an idle moment: nobody waits for it, and on a long run it must not hold up the span tree.
  const chartReady = useAfterIdle();
  // Following a running run: when it grows, move to its newest frame (state adjusted during render, not in an effect).
  const [shownLength, setShownLength] = useState(frames.length);
  if (shownLength !== frames.length) {
    setShownLength(frames.length);
    if (following) setFrameRaw(clampFrame(frames.length - 1, frames.length));
  }

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (isTyping(e.target) || e.altKey || e.ctrlKey || e.metaKey) return;
      // The slider handles its own arrows; everything else on the page steps through the log.
      if ((e.target as HTMLElement | null)?.getAttribute?.('type') === 'range') return;
      if (e.key === 'ArrowRight') setFrameRaw((f) => clampFrame(f + 1, frames.length));
      else if (e.key === 'ArrowLeft') setFrameRaw((f) => clampFrame(f - 1, frames.length));
      else if (e.key === 'Home') setFrameRaw(0);
      else if (e.key === 'End') setFrameRaw(clampFrame(frames.length - 1, frames.length));
      else return;
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [frames.length]);

  // The address follows the position, so the URL in the bar is always a link to what is on screen.
  useEffect(() => {
    const next = addressForFrame(window.location.href, frame);
    if (next) window.history.replaceState(window.history.state, '', next);
  }, [frame]);

  // Prefetch the neighbouring steps so stepping feels instant.
  useEffect(() => {
    if (!current) return;
    for (const s of [current.step - 1, current.step + 1]) if (s >= 0) void queryClient.prefetchQuery(stepsQuery(runId, s));
  }, [current, queryClient, runId]);

  const taken = useMemo(() => frames.slice(0, frame + 1).map((f) => f.transition), [frames, frame]);
  const diagram = useMemo(
    () => stateDiagramSource({ current: current?.state ?? null, taken, last: current?.transition ?? null }),
    [current, taken],
  );

  if (!current) return <p className="panel">This run has no recorded transitions to replay.</p>;
  const modelStep = modelStepForFrame(current);
  // A guard that stops the run before a step's model call leaves that step without one.
  const callIndex = callSteps.has(modelStep) ? callIndexForStep(modelStep) : null;
  const callNumber = callIndex !== null && callIndex < series.length ? callIndex + 1 : null;

  return (
    <section aria-label="Replay" data-testid="replay">
      <div className="panel">
        <div className="slider-row">
          <button type="button" onClick={() => setFrame(frame - 1)} disabled={frame === 0} aria-label="Previous transition">
            ← Prev
          </button>
          <input
            type="range"
            min={0}
            max={Math.max(0, frames.length - 1)}
            value={frame}
            onChange={(e) => setFrame(Number(e.target.value))}
            aria-label="Replay position"
            aria-valuetext={`transition ${frame + 1} of ${frames.length}, step ${current.step}, ${current.state}`}
          />
          <button type="button" onClick={() => setFrame(frame + 1)} disabled={frame >= frames.length - 1} aria-label="Next transition">
            Next →
          </button>
        </div>
        <p className="small" style={{ marginBottom: 0 }} data-testid="replay-position">
          Transition <strong>{frame + 1}</strong> of {waitingForRest ? transitionCount : frames.length} · step <strong>{current.step}</strong> ·{' '}
          <span className="mono">
            {current.transition.from} → {current.transition.to}
          </span>{' '}
          <span className="muted">({current.transition.reason})</span>
          {frameAgent ? (
            <>
              {' '}
              · agent <strong data-testid="replay-agent">{pathLabel(frameAgent.path)}</strong>
            </>
          ) : null}
          {frame === frames.length - 1 && !waitingForRest ? <> · ended with {terminationReason}</> : null}
          <span className="muted"> · ← → keys move one transition</span>
        </p>
        {waitingForRest ? (
          whole.error ? (
            <p className="alert error small" role="alert" data-testid="replay-rest">
              Only the first {frames.length} transitions could be loaded: {whole.error instanceof Error ? whole.error.message : 'the rest of the run did not load'}.
            </p>
          ) : (
            <p className="muted small" data-testid="replay-rest">
              The first {frames.length} transitions are here; the other {transitionCount - frames.length} are loading…
            </p>
          )
        ) : null}
        <CopyLinkButton label="Copy link to this transition" />
      </div>

      {agents && graph ? (
        <>
          <div className="timeline-grid">
            <div className="panel" data-testid="span-tree-panel">
              <h2>Agents and their calls</h2>
              <SpanTreePanel
                runId={runId}
                agents={agents.views}
                start={agents.treeStart ?? null}
                colours={colours}
                currentStep={current.step}
                following={following}
                onSelectStep={(step, agent) => setFrame(frameForAgentStep(frames, agents.agentOf, step, agent ?? 0))}
              />
            </div>
            <div className="panel">
              <h2>Timeline</h2>
              <WaterfallChart
                runId={runId}
                currentStep={current.step}
                following={following}
                onSelectStep={(step, agent) => setFrame(frameForAgentStep(frames, agents.agentOf, step, agent ?? 0))}
                colourOf={(agent) => colours.get(pathLabel(agents.views[agent ?? 0]?.path ?? [])) ?? 0}
                whole
              />
            </div>
          </div>
          <div className="panel">
            <h2>Agent graph</h2>
            <p className="small muted" style={{ marginTop: 0 }}>
              Who called whom, how many times and how, and where the time went (the bar under each agent is its share of the run). Select an agent to
              move the replay to its first step.
            </p>
            <AgentGraphView
              graph={graph}
              currentKey={frameAgent ? pathLabel(frameAgent.path) : null}
              onSelect={(key) => {
                const node = graph.nodes.find((n) => n.key === key);
                const at = node ? firstFrameOfAgent(agents.agentOf, node.firstAgent) : -1;
                if (at >= 0) setFrame(at);
              }}
            />
          </div>
        </>
      ) : (
        <div className="panel">
          <h2>Timeline</h2>
          <WaterfallChart runId={runId} currentStep={current.step} following={following} onSelectStep={(step) => setFrame(frameForStep(frames, step))} />
        </div>
      )}

      <div className="replay-grid">
        <div>
          <div className="panel">
            <h2>State machine</h2>
            {agents ? (
              <AgentStateMachine
                agents={agents.views}
                transitions={logged}
                agentOf={agents.agentOf}
                frame={frame}
                picked={pickedAgent}
                onPick={setPickedAgent}
                colours={colours}
              />
            ) : (
              <MermaidDiagram source={diagram} label={`Harness state diagram, current state ${current.state}`} />
            )}
          </div>
          <div className="panel">
            <h2>Step {current.step}: tool calls and events</h2>
            <StepCost runId={runId} step={current.step} following={following} whole={agents !== null} />
            <StepEntries runId={runId} step={current.step} />
          </div>
          <div className="panel">
            <h2>Input tokens per model call</h2>
            {chartReady ? <TokenChart series={series} budget={budget} currentCall={callNumber} /> : <p className="muted small">Drawing the token chart…</p>}
          </div>
        </div>
        <div>
          {labelling ? (
            <LabelPanel
              runId={runId}
              step={current.step}
              labelSet={labelling.labelSet}
              initialLabels={labelling.labels}
              canLabel={labelling.canLabel}
              unverified={labelling.unverified}
            />
          ) : null}
          <div className="panel">
            <h2>What the model saw{callIndex !== null ? ` (call ${callIndex + 1}, step ${modelStep})` : ''}</h2>
            <ModelMessages
              runId={runId}
              callIndex={callIndex}
              noCall={
                modelStep === 0
                  ? 'No model call yet at this point: the run is being planned.'
                  : `No model call was made at step ${modelStep}: the run stopped before it (${current.transition.reason}).`
              }
            />
          </div>
          <div className="panel">
            <h2>Guard, policy and compaction events</h2>
            <EventList events={timeline.events} currentStep={current.step} onJump={(step) => setFrame(frames.findIndex((f) => f.step >= step))} />
          </div>
          <div className="panel">
            <h2>Transition log</h2>
            <TransitionLog frames={frames} current={frame} onSelect={setFrame} />
          </div>
        </div>
      </div>
    </section>
  );
}
