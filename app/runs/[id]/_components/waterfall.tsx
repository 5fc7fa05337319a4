'use client';
/**
 * The run's waterfall: one row per model call, tool call, retry or approval wait, guard or compaction
 * event, with its bar on the run's time axis and its latency, tokens and cost; the rows of the step on
 * screen are highlighted and clicking one moves the replay to its step. Virtualised: a 20,000-step
 * run has ~40,000 rows, fetched a page at a time (those in view and those of the step on screen).
 * Bars placed in order (no recorded start) are drawn hatched and the page says so.
 */
import { useQueries, useQuery } from '@tanstack/react-query';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useMemo, useRef } from 'react';
import { barsOfAnswer, pagesOfStep, stepTotals, type StepTotals, type WaterfallAnswer, type WaterfallBar, type WaterfallPageRequest } from '@/lib/charts/waterfall';
import { fetchJson } from '@/components/fetch-json';
import { formatDuration } from '@/lib/format/units';
import { agentStyle } from './span-tree';
import { waterfallUrl } from '../waterfall-url';

const ROW_PX = 26;

/** A page of the run's waterfall (or all of it), refetched every 2 s while the run is followed live. */
export const waterfallQuery = (runId: string, page: WaterfallPageRequest, following = false) => ({
  queryKey: ['waterfall', runId, page],
  queryFn: ({ signal }: { signal: AbortSignal }) => fetchJson<WaterfallAnswer>(waterfallUrl(runId, page), signal),
  staleTime: 5_000,
  refetchInterval: following ? 2_000 : (false as const),
});

const errorOf = (error: unknown) => (error instanceof Error ? error.message : 'the waterfall could not be loaded');

/**
 * The waterfall's pages: the first (or, `whole`, every bar at once) and those asked for besides
 * (`pages`); a bar by its position in the whole once its page has come. Shared by the chart, the
 * step line and the span tree through react-query's cache.
 */
function useWaterfallPages(runId: string, following: boolean, whole: boolean, pages: readonly number[]) {
  const first = useQuery(waterfallQuery(runId, whole ? 'all' : 0, following));
  const others = useQueries({ queries: (whole ? [] : pages.filter((p) => p !== 0)).map((p) => waterfallQuery(runId, p, following)) });
  const loaded = new Map<number, WaterfallAnswer>();
  if (first.data) loaded.set(0, first.data);
  (whole ? [] : pages.filter((p) => p !== 0)).forEach((p, i) => {
    const data = others[i]?.data;
    if (data) loaded.set(p, data);
  });
  const error = first.error ?? others.find((q) => q.error)?.error ?? null;
  return { head: first.data ?? null, loaded, error: error ? errorOf(error) : null };
}

/** The bar at position `i` of the whole waterfall, when its page has loaded. */
function barAt(loaded: ReadonlyMap<number, WaterfallAnswer>, size: number, i: number): WaterfallBar | undefined {
  const answer = loaded.get(Math.floor(i / size));
  return answer ? barsOfAnswer(answer)[i - answer.from] : undefined;
}

/** The position of the first bar of `step` on the pages that hold it, or -1 (none, or not loaded yet). */
function firstBarOfStep(loaded: ReadonlyMap<number, WaterfallAnswer>, pages: readonly number[], step: number): number {
  for (const p of pages) {
    const answer = loaded.get(p);
    const at = answer ? barsOfAnswer(answer).findIndex((b) => b.step === step) : -1;
    if (answer && at >= 0) return answer.from + at;
  }
  return -1;
}

/** Every bar of the run (a run of several agents: its span tree), or null while loading. */
export function useWholeWaterfall(runId: string, following: boolean): { bars: WaterfallBar[]; axisMs: number } | { error: string } | null {
  const { head, error } = useWaterfallPages(runId, following, true, []);
  return useMemo(() => (error ? { error } : head ? { bars: barsOfAnswer(head), axisMs: head.axisMs } : null), [head, error]);
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

/** The step's line: its bars are on the page(s) the whole's page index names, fetched when not loaded yet. */
export function StepCost({ runId, step, following, whole = false }: { runId: string; step: number; following: boolean; whole?: boolean }) {
  const first = useQuery(waterfallQuery(runId, whole ? 'all' : 0, following));
  const pages = first.data && !whole ? pagesOfStep(first.data, step) : [];
  const { loaded } = useWaterfallPages(runId, following, whole, pages);
  if (!first.data) return null;
  const entries = (whole ? [0] : pages).flatMap((p) => (loaded.get(p) ? barsOfAnswer(loaded.get(p)!) : []));
  if (!whole && pages.some((p) => !loaded.has(p))) return null;
  return <StepCostLine totals={stepTotals(entries, step)} />;
}

export function WaterfallChart({
  runId,
  currentStep,
  following,
  onSelectStep,
  colourOf,
  whole = false,
}: {
  runId: string;
  currentStep: number;
  following: boolean;
  /** Fetch every bar at once (a run of several agents, whose span tree reads them all) instead of a page at a time. */
  whole?: boolean;
  /** The replay moves to `step` (and, in a run of several agents, to the bar's agent there). */
  onSelectStep: (step: number, agent: number | null) => void;
  /** A run of several agents: the colour number of an entry's agent, marking each row with its agent's colour. */
  colourOf?: (agent: number | null) => number;
}) {
  const parent = useRef<HTMLDivElement>(null);
  const first = useQuery(waterfallQuery(runId, whole ? 'all' : 0, following));
  const head = first.data ?? null;
  const size = head?.pageSize ?? 1;
  const virtual = useVirtualizer({ count: head?.total ?? 0, getScrollElement: () => parent.current, estimateSize: () => ROW_PX, overscan: 12 });
  const items = virtual.getVirtualItems();
  // The pages of the rows in view and of the step on screen (a long run's waterfall comes a page at a time).
  const stepPages = head && !whole ? pagesOfStep(head, currentStep) : [];
  const pages = [...new Set([...items.map((v) => Math.floor(v.index / size)), ...stepPages])].sort((a, b) => a - b);
  const { loaded, error } = useWaterfallPages(runId, following, whole, pages);
  const firstOfStep = firstBarOfStep(loaded, whole ? [0] : stepPages, currentStep);
  useEffect(() => {
    if (firstOfStep >= 0) virtual.scrollToIndex(firstOfStep, { align: 'auto' });
  }, [firstOfStep, virtual]);
  if (!head && !error) return <p className="muted small">Loading the waterfall…</p>;
  if (error || !head)
    return (
      <p className="alert error" role="alert">
        The waterfall could not be loaded: {error}
      </p>
    );
  const waterfall = head;
  if (waterfall.total === 0) return <p className="muted small">This run made no model or tool call.</p>;
  const axis = Math.max(1, waterfall.axisMs);
  const simulated = waterfall.simulated;
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
            const b = barAt(loaded, size, v.index);
            if (!b)
              return (
                <div
                  key={v.key}
                  className="waterfall-row muted small"
                  data-testid="waterfall-bar-loading"
                  style={{ position: 'absolute', top: 0, left: 0, right: 0, height: ROW_PX, transform: `translateY(${v.start}px)` }}
                >
                  loading…
                </div>
              );
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
