'use client';
/**
 * The run's waterfall: one row per model call, tool call, retry or approval wait, guard or compaction
 * event, with its bar on the run's time axis and its latency, tokens and cost; the rows of the step on
 * screen are highlighted and clicking one moves the replay to its step. Virtualised: a 20,000-step
 * run has ~40,000 rows. Bars placed in order (no recorded start) are drawn hatched and the page says so.
 */
import { useQuery } from '@tanstack/react-query';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useMemo, useRef } from 'react';
import { shapedAnswer, stepTotals, type StepTotals, type WaterfallAnswer } from '@/lib/charts/waterfall';
import { fetchJson } from '@/components/fetch-json';
import { formatDuration } from '@/lib/format/units';
import { agentStyle } from './span-tree';
import { waterfallUrl } from '../waterfall-url';

const ROW_PX = 26;

export const waterfallQuery = (runId: string) => ({
  queryKey: ['waterfall', runId],
  queryFn: ({ signal }: { signal: AbortSignal }) => fetchJson<WaterfallAnswer>(waterfallUrl(runId), signal),
  staleTime: 5_000,
});

type ShapedWaterfall = ReturnType<typeof shapedAnswer>;

/** The run's entries and shaped waterfall (shared by the chart and the step line through react-query's cache). */
export function useWaterfall(runId: string, following: boolean): ShapedWaterfall | { error: string } | null {
  const q = useQuery({ ...waterfallQuery(runId), refetchInterval: following ? 2_000 : false });
  return useMemo(() => {
    if (q.error) return { error: q.error instanceof Error ? q.error.message : 'the waterfall could not be loaded' };
    if (!q.data) return null;
    return shapedAnswer(q.data);
  }, [q.data, q.error]);
}

const ms = (v: number | null) => (v === null ? 'not recorded' : formatDuration(v));
const usd = (v: number | null) => (v === null ? 'cost unknown' : v === 0 ? '$0' : `$${v < 0.0001 ? v.toExponential(2) : v.toFixed(4)}`);

/** "Step 3: model 1.2 s · tools 30 ms · 1,234 tokens · $0.0012" for the replay panel. */
export function StepCostLine({ totals }: { totals: StepTotals }) {
  const parts = [
    totals.modelMs !== null ? `model ${formatDuration(totals.modelMs)}` : null,
    totals.toolMs !== null ? `tools ${formatDuration(totals.toolMs)}` : null,
    totals.waitMs !== null ? `waiting ${formatDuration(totals.waitMs)}` : null,
    totals.tokens !== null ? `${totals.tokens.toLocaleString('en')} tokens` : null,
    totals.tokens !== null ? usd(totals.costUsd) : null,
  ].filter(Boolean);
  return (
    <p className="small muted" data-testid="step-cost">
      Step {totals.step}: {parts.length ? parts.join(' · ') : 'no model or tool call'}
    </p>
  );
}

export function StepCost({ runId, step, following }: { runId: string; step: number; following: boolean }) {
  const w = useWaterfall(runId, following);
  if (!w || 'error' in w) return null;
  return <StepCostLine totals={stepTotals(w.entries, step)} />;
}

export function WaterfallChart({
  runId,
  currentStep,
  following,
  onSelectStep,
  colourOf,
}: {
  runId: string;
  currentStep: number;
  following: boolean;
  /** The replay moves to `step` (and, in a run of several agents, to the bar's agent there). */
  onSelectStep: (step: number, agent: number | null) => void;
  /** A run of several agents: the colour number of an entry's agent, marking each row with its agent's colour. */
  colourOf?: (agent: number | null) => number;
}) {
  const w = useWaterfall(runId, following);
  const parent = useRef<HTMLDivElement>(null);
  const bars = useMemo(() => (w && 'waterfall' in w ? w.waterfall.bars : []), [w]);
  const virtual = useVirtualizer({ count: bars.length, getScrollElement: () => parent.current, estimateSize: () => ROW_PX, overscan: 12 });
  const firstOfStep = useMemo(() => bars.findIndex((b) => b.step === currentStep), [bars, currentStep]);
  useEffect(() => {
    if (firstOfStep >= 0) virtual.scrollToIndex(firstOfStep, { align: 'auto' });
  }, [firstOfStep, virtual]);
  if (!w) return <p className="muted small">Loading the waterfall…</p>;
  if ('error' in w)
    return (
      <p className="alert error" role="alert">
        The waterfall could not be loaded: {w.error}
      </p>
    );
  const { waterfall } = w;
  if (waterfall.bars.length === 0) return <p className="muted small">This run made no model or tool call.</p>;
  const axis = Math.max(1, waterfall.axisMs);
  const simulated = waterfall.bars.some((b) => b.simulatedMs !== undefined && b.simulatedMs !== null);
  return (
    <div data-testid="waterfall">
      <p className="small muted" data-testid="waterfall-note">
        Bars and times are wall clock (from the run&apos;s start, axis {formatDuration(waterfall.axisMs)}).{' '}
        {simulated ? 'The fake model’s latencies are simulated — scripted, not waited for — so they are labelled “simulated” and not drawn. ' : ''}
        {waterfall.placement === 'recorded'
          ? 'Bars at their recorded start and end times.'
          : `Start times are not recorded for ${waterfall.placement === 'mixed' ? 'some calls' : 'this run’s calls'}: those bars (hatched) are laid end to end in the order the run made them, each as long as its recorded latency.`}
        {waterfall.unaccountedMs !== null ? ` ${formatDuration(waterfall.unaccountedMs)} of the run’s ${formatDuration(waterfall.axisMs)} is outside any call (planning, storing, gaps not recorded).` : ''}
        {waterfall.unknownDurations > 0 ? ` ${waterfall.unknownDurations} bar(s) have no recorded length.` : ''}
      </p>
      <div ref={parent} className="virtual-list" style={{ height: '18rem' }}>
        <div style={{ height: virtual.getTotalSize(), position: 'relative' }}>
          {virtual.getVirtualItems().map((v) => {
            const b = waterfall.bars[v.index]!;
            const here = b.step === currentStep;
            const left = (b.offsetMs / axis) * 100;
            const width = Math.max((b.widthMs / axis) * 100, 0.3);
            return (
              <button
                type="button"
                key={v.key}
                className={`waterfall-row ${here ? 'active' : ''}${colourOf ? ' agent-coloured' : ''}`}
                aria-current={here ? 'step' : undefined}
                data-testid="waterfall-bar"
                data-kind={b.kind}
                data-step={b.step}
                data-placement={b.placement}
                data-start-ms={Math.round(b.offsetMs)}
                data-end-ms={Math.round(b.offsetMs + b.widthMs)}
                data-duration-ms={b.durationMs ?? undefined}
                data-width-ms={b.widthMs}
                onClick={() => onSelectStep(b.step, b.agent ?? null)}
                title={`${b.label} · step ${b.step} · ${ms(b.durationMs)}${b.simulatedMs != null ? ` (simulated ${formatDuration(b.simulatedMs)})` : ''}${b.timeToFirstTokenMs != null ? ` · first token after ${ms(b.timeToFirstTokenMs)}` : ''}${b.tokens !== null ? ` · ${b.tokens} tokens · ${usd(b.costUsd)}` : b.kind === 'model' ? ' · usage not reported' : ''}${b.placement === 'ordered' ? ' · start not recorded' : ''}`}
                data-agent={colourOf ? (b.agent ?? 0) : undefined}
                style={{ ...(colourOf ? agentStyle(colourOf(b.agent ?? null)) : {}), position: 'absolute', top: 0, left: 0, right: 0, height: ROW_PX, transform: `translateY(${v.start}px)` }}
              >
                <span className="waterfall-label">
                  <span className="muted">{b.step}</span> {b.label}
                </span>
                <span className="waterfall-track">
                  <span className={`waterfall-bar kind-${b.kind}${b.error ? ' error' : ''}${b.placement === 'ordered' ? ' ordered' : ''}`} style={{ left: `${left}%`, width: `${width}%` }} />
                </span>
                <span className="waterfall-figures small">
                  {b.kind === 'guard' || b.kind === 'compaction' ? 'event' : ms(b.durationMs)}
                  {b.simulatedMs != null ? <span data-testid="simulated-latency"> · simulated {formatDuration(b.simulatedMs)}</span> : null}
                  {b.timeToFirstTokenMs != null ? <span data-testid="time-to-first-token"> · first token {ms(b.timeToFirstTokenMs)}</span> : null}
                  {b.tokens !== null ? ` · ${b.tokens.toLocaleString('en')} tok · ${usd(b.costUsd)}` : b.kind === 'model' ? <span data-testid="usage-not-reported"> · tokens not reported</span> : ''}
                </span>
              </button>
            );
          })}
        </div>
      </div>
    </div>
  );
}
