/**
 * A run's waterfall: its model calls, tool calls, retry and approval waits, and guard and compaction
 * events as bars on one time axis, with latency, tokens and cost per bar. This is the ONE place bars
 * get their start: an entry's `recorded` start and end (the times the loop or the imported trace
 * recorded, lib/harness/call-times.ts) place it; without them a bar is laid after the one before it, in the order
 * the run made its calls, and is marked `ordered` — its start is not recorded, and the page says so.
 * Unknown is null: a bar whose latency was not recorded has no width and says so, never 0 ms.
 */

/** `span`: an imported trace's other spans (chain, retriever, embedding, …). New kinds go last: the wire form numbers them. */
export const WATERFALL_KINDS = ['model', 'tool', 'retry_wait', 'approval_wait', 'guard', 'compaction', 'span'] as const;
export type WaterfallKind = (typeof WATERFALL_KINDS)[number];

/** One thing the run did, in trajectory order (`index` is its trajectory position). */
export interface WaterfallEntry {
  index: number;
  step: number;
  kind: WaterfallKind;
  label: string;
  /** How long it took (ms): a call's latency, a wait's length; null when not recorded; 0 for an event. */
  durationMs: number | null;
  /** Input + output tokens of a model call; null for anything else. */
  tokens: number | null;
  /** USD of a model call at the run's model price; null when unknown or not a model call. */
  costUsd: number | null;
  /** A tool call that returned an error, a model call that failed, a guard that stopped the run. */
  error: boolean;
  /** When it started and ended (ms from the run's start), as the run recorded; absent or null: not recorded. */
  recorded?: RecordedSpan | null;
  /** The agent that made it (an index into the run's agents); absent or null: the run's first agent. */
  agent?: number | null;

  /**
   * A latency the model reported but nobody waited for (the fake model's scripted latency): shown
   * labelled "simulated", never drawn on the wall-clock axis nor summed with wall-clock times. Absent: none.
   */
  simulatedMs?: number | null;
  /** A streamed model call's measured time to its first token (ms); absent or null: not streamed (unknown). */
  timeToFirstTokenMs?: number | null;
}

/** A recorded start and end, in ms from the run's start. */
export interface RecordedSpan {
  startMs: number;
  endMs: number;
}

export interface WaterfallBar extends WaterfallEntry {
  /** Where the bar starts on the axis (ms from the run's start). */
  offsetMs: number;
  /** Its width (ms); 0 for an event or an unknown duration. */
  widthMs: number;
  /** `recorded`: start and end from the run's record; `ordered`: start not recorded, laid after the bar before it. */
  placement: 'recorded' | 'ordered';
}

export interface Waterfall {
  bars: WaterfallBar[];
  /** Length of the axis (ms). */
  axisMs: number;
  /** How bars were placed: all from recorded times, none, or some of each. */
  placement: 'recorded' | 'ordered' | 'mixed' | 'empty';
  /** Bars whose duration was not recorded. */
  unknownDurations: number;
  /**
   * With ordered bars: the run's duration not covered by the bars laid end to end (planning, storing,
   * the harness's own work, and gaps between calls that were not recorded); null when not computable.
   */
  unaccountedMs: number | null;
}

/**
 * Places the entries on one axis. `recorded(entry)` returns the entry's recorded span, or null; the
 * run's duration (null when unknown) bounds the axis and gives the time the bars do not account for.
 */
export function shapeWaterfall(
  entries: readonly WaterfallEntry[],
  options: { runDurationMs: number | null; recorded?: (entry: WaterfallEntry) => RecordedSpan | null } = { runDurationMs: null },
): Waterfall {
  const sorted = [...entries].sort((a, b) => a.index - b.index);
  let cursor = 0;
  let recordedCount = 0;
  let unknown = 0;
  const bars: WaterfallBar[] = sorted.map((e) => {
    const span = (options.recorded ? options.recorded(e) : e.recorded) ?? null;
    if (span && Number.isFinite(span.startMs) && span.endMs >= span.startMs) {
      recordedCount += 1;
      cursor = Math.max(cursor, span.endMs);
      // The figure beside a bar is the bar's own length: one measure, the recorded wall clock (issue 43).
      return barOf(e, span.endMs - span.startMs, span.startMs, span.endMs - span.startMs, 'recorded');
    }
    if (e.durationMs === null) unknown += 1;
    const width = e.durationMs !== null && Number.isFinite(e.durationMs) && e.durationMs > 0 ? e.durationMs : 0;
    const bar = barOf(e, e.durationMs, cursor, width, 'ordered');
    cursor += width;
    return bar;
  });
  const placement = bars.length === 0 ? 'empty' : recordedCount === bars.length ? 'recorded' : recordedCount === 0 ? 'ordered' : 'mixed';
  const run = options.runDurationMs !== null && Number.isFinite(options.runDurationMs) ? options.runDurationMs : null;
  return {
    bars,
    axisMs: Math.max(cursor, run ?? 0),
    placement,
    unknownDurations: unknown,
    unaccountedMs: placement === 'ordered' && run !== null ? Math.max(0, run - cursor) : null,
  };
}

/**
 * An entry as a bar. Built field by field: a 20,000-entry waterfall's entries come in many shapes (the
 * optional fields each set or not), and spreading them (`{ ...e, offsetMs }`) took V8's slow path,
 * ~170 ms of a route's CPU where this takes a few.
 */
function barOf(e: WaterfallEntry, durationMs: number | null, offsetMs: number, widthMs: number, placement: WaterfallBar['placement']): WaterfallBar {
  const bar: WaterfallBar = { index: e.index, step: e.step, kind: e.kind, label: e.label, durationMs, tokens: e.tokens, costUsd: e.costUsd, error: e.error, offsetMs, widthMs, placement };
  if (e.recorded !== undefined) bar.recorded = e.recorded;
  if (e.agent !== undefined) bar.agent = e.agent;
  if (e.simulatedMs !== undefined) bar.simulatedMs = e.simulatedMs;
  if (e.timeToFirstTokenMs !== undefined) bar.timeToFirstTokenMs = e.timeToFirstTokenMs;
  return bar;
}

/** One step's model and tool time, tokens and cost (the replay panel's line); null parts are unknown. */
export interface StepTotals {
  step: number;
  modelMs: number | null;
  toolMs: number | null;
  waitMs: number | null;
  tokens: number | null;
  costUsd: number | null;
}

/** Sums a kind's durations, or null when any of them is unknown (or there are none). */
function sumOf(bars: readonly WaterfallEntry[], pick: (b: WaterfallEntry) => number | null): number | null {
  if (bars.length === 0) return null;
  let total = 0;
  for (const b of bars) {
    const v = pick(b);
    if (v === null) return null;
    total += v;
  }
  return total;
}

export function stepTotals(entries: readonly WaterfallEntry[], step: number): StepTotals {
  const mine = entries.filter((e) => e.step === step);
  const of = (kinds: readonly WaterfallKind[]) => mine.filter((e) => kinds.includes(e.kind));
  const model = of(['model']);
  return {
    step,
    modelMs: sumOf(model, (b) => b.durationMs),
    toolMs: sumOf(of(['tool']), (b) => b.durationMs),
    waitMs: sumOf(of(['retry_wait', 'approval_wait']), (b) => b.durationMs),
    tokens: sumOf(model, (b) => b.tokens),
    costUsd: sumOf(model, (b) => b.costUsd),
  };
}

/** A compact wire form: one array per field, labels in a string table (a 20,000-step run has ~40,000 entries). */
export interface PackedWaterfall {
  labels: string[];
  index: number[];
  step: number[];
  kind: number[];
  label: number[];
  /** -1: not recorded. */
  durationMs: number[];
  /** -1: none. */
  tokens: number[];
  /** -1: unknown. */
  costUsd: number[];
  error: number[];
  /** Recorded start and end (ms from the run's start); -1: not recorded. */
  startMs: number[];
  endMs: number[];
  /** The agent of each entry (-1: the first agent); absent when no entry names one (a single-agent run). */
  agent?: number[];

  /** A simulated latency (ms); -1: none. Absent in payloads from before it existed. */
  simulatedMs?: number[];
  /** A streamed call's time to first token (ms); -1: none. Absent when no entry has one. */
  timeToFirstTokenMs?: number[];
}

export function packWaterfall(entries: readonly WaterfallEntry[]): PackedWaterfall {
  const p: PackedWaterfall = { labels: [], index: [], step: [], kind: [], label: [], durationMs: [], tokens: [], costUsd: [], error: [], startMs: [], endMs: [], simulatedMs: [] };
  const ids = new Map<string, number>();
  for (const e of entries) {
    let id = ids.get(e.label);
    if (id === undefined) {
      id = p.labels.push(e.label) - 1;
      ids.set(e.label, id);
    }
    p.index.push(e.index);
    p.step.push(e.step);
    p.kind.push(WATERFALL_KINDS.indexOf(e.kind));
    p.label.push(id);
    p.durationMs.push(e.durationMs ?? -1);
    p.tokens.push(e.tokens ?? -1);
    p.costUsd.push(e.costUsd ?? -1);
    p.error.push(e.error ? 1 : 0);
    p.startMs.push(e.recorded ? e.recorded.startMs : -1);
    p.endMs.push(e.recorded ? e.recorded.endMs : -1);
    p.simulatedMs!.push(e.simulatedMs ?? -1);
  }
  // Only a run of several agents sends them: every entry of a single-agent run is the first agent's.
  if (entries.some((e) => (e.agent ?? 0) > 0)) p.agent = entries.map((e) => e.agent ?? -1);
  // Only a run with streamed calls sends their times to first token.
  if (entries.some((e) => e.timeToFirstTokenMs != null)) p.timeToFirstTokenMs = entries.map((e) => e.timeToFirstTokenMs ?? -1);
  return p;
}

export function unpackWaterfall(p: PackedWaterfall): WaterfallEntry[] {
  const nullIfNegative = (v: number | undefined) => (v === undefined || v < 0 ? null : v);
  return p.index.map((index, i) => {
    const recorded = recordedAt(p, i);
    const agent = p.agent?.[i];
    return {
      index,
      step: p.step[i]!,
      kind: WATERFALL_KINDS[p.kind[i]!] ?? 'guard',
      label: p.labels[p.label[i]!] ?? '',
      durationMs: nullIfNegative(p.durationMs[i]),
      tokens: nullIfNegative(p.tokens[i]),
      costUsd: nullIfNegative(p.costUsd[i]),
      error: p.error[i] === 1,
      ...(recorded ? { recorded } : {}),
      ...(agent !== undefined && agent >= 0 ? { agent } : {}),

      ...(nullIfNegative(p.simulatedMs?.[i]) !== null ? { simulatedMs: p.simulatedMs![i] } : {}),
      ...(nullIfNegative(p.timeToFirstTokenMs?.[i]) !== null ? { timeToFirstTokenMs: p.timeToFirstTokenMs![i] } : {}),
    };
  });
}

function recordedAt(p: PackedWaterfall, i: number): RecordedSpan | null {
  const startMs = p.startMs?.[i];
  const endMs = p.endMs?.[i];
  return startMs !== undefined && endMs !== undefined && startMs >= 0 && endMs >= startMs ? { startMs, endMs } : null;
}

/** Bars per page of the waterfall route's answer: a 20,000-step run has ~40,000 bars, its whole answer was 900 KiB. */
export const WATERFALL_PAGE = 500;

/** Which bars an answer holds: a page of WATERFALL_PAGE bars (0 first), or all of them (a run of several agents' span tree needs every bar). */
export type WaterfallPageRequest = number | 'all';

/**
 * The waterfall route's answer (app/api/runs/[id]/waterfall): the whole waterfall's facts and one
 * page of its bars, placed on the server over every bar (a bar laid in order starts where the bars
 * before it end, so it cannot be placed from its page alone).
 */
export interface WaterfallAnswer {
  runDurationMs: number;
  /** Bars in the whole waterfall. */
  total: number;
  /** The first bar's position in the whole, and how many bars a page holds (`total` for all). */
  from: number;
  pageSize: number;
  /** The smallest and largest step of each page's bars, in page order: which pages hold a step's bars. */
  pageSteps: [number, number][];
  axisMs: number;
  placement: Waterfall['placement'];
  unknownDurations: number;
  unaccountedMs: number | null;
  /** Some bar has a simulated latency (the fake model's), labelled so and not drawn. */
  simulated: boolean;
  /** The page's bars as entries, and where each is on the axis. */
  packed: PackedWaterfall;
  offsetMs: number[];
  widthMs: number[];
  /** 1: the bar is laid in order (its start is not recorded). */
  ordered: number[];
}

/** One page (or all) of a run's waterfall, shaped over every entry: what the route sends. */
export function waterfallPage(entries: readonly WaterfallEntry[], runDurationMs: number, page: WaterfallPageRequest, pageSize = WATERFALL_PAGE): WaterfallAnswer {
  const w = shapeWaterfall(entries, { runDurationMs });
  const size = page === 'all' ? Math.max(1, w.bars.length) : pageSize;
  const from = page === 'all' ? 0 : page * size;
  const bars = w.bars.slice(from, from + size);
  const pageSteps: [number, number][] = [];
  for (let i = 0; i < w.bars.length; i += size) {
    let min = Infinity;
    let max = -Infinity;
    for (const b of w.bars.slice(i, i + size)) {
      min = Math.min(min, b.step);
      max = Math.max(max, b.step);
    }
    pageSteps.push([min, max]);
  }
  return {
    runDurationMs,
    total: w.bars.length,
    from,
    pageSize: size,
    pageSteps,
    axisMs: w.axisMs,
    placement: w.placement,
    unknownDurations: w.unknownDurations,
    unaccountedMs: w.unaccountedMs,
    simulated: w.bars.some((b) => b.simulatedMs !== undefined && b.simulatedMs !== null),
    packed: packWaterfall(bars),
    offsetMs: bars.map((b) => b.offsetMs),
    widthMs: bars.map((b) => b.widthMs),
    ordered: bars.map((b) => (b.placement === 'ordered' ? 1 : 0)),
  };
}

/** The pages whose bars include step `step` (none when no bar is of that step). */
export function pagesOfStep(answer: Pick<WaterfallAnswer, 'pageSteps'>, step: number): number[] {
  return answer.pageSteps.flatMap(([min, max], page) => (min <= step && step <= max ? [page] : []));
}

const answerBars = new WeakMap<WaterfallAnswer, WaterfallBar[]>();

/**
 * An answer's bars, unpacked once however many parts of the page read it: the span tree, the
 * waterfall chart and the step's cost line each read the same query, and a 5,000-span run unpacked
 * and shaped three times held up the span tree's first rows (issue 31).
 */
export function barsOfAnswer(answer: WaterfallAnswer): WaterfallBar[] {
  let bars = answerBars.get(answer);
  if (!bars) {
    bars = unpackWaterfall(answer.packed).map((e, i) => barOf(e, e.durationMs, answer.offsetMs[i] ?? 0, answer.widthMs[i] ?? 0, answer.ordered[i] === 1 ? 'ordered' : 'recorded'));
    answerBars.set(answer, bars);
  }
  return bars;
}
