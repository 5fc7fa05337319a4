import { describe, expect, it } from 'vitest';
import { barsOfAnswer, packWaterfall, pagesOfStep, shapeWaterfall, stepTotals, unpackWaterfall, waterfallPage, type WaterfallEntry } from './waterfall';

const e = (index: number, step: number, kind: WaterfallEntry['kind'], durationMs: number | null, extra: Partial<WaterfallEntry> = {}): WaterfallEntry => ({
  index,
  step,
  kind,
  label: `${kind}-${index}`,
  durationMs,
  tokens: kind === 'model' ? 100 * index : null,
  costUsd: kind === 'model' ? 0.001 * index : null,
  error: false,
  ...extra,
});

const entries = [e(3, 1, 'tool', 5), e(0, 1, 'model', 40), e(1, 1, 'retry_wait', 250), e(2, 1, 'model', 30), e(4, 2, 'guard', 0), e(5, 2, 'model', null)];

describe('the waterfall', () => {
  it('without recorded starts lays bars end to end in trajectory order, marks them ordered, and says what the bars do not cover', () => {
    const w = shapeWaterfall(entries, { runDurationMs: 1000 });
    expect(w.placement).toBe('ordered');
    expect(w.bars.map((b) => b.index)).toEqual([0, 1, 2, 3, 4, 5]);
    for (let i = 1; i < w.bars.length; i += 1) expect(w.bars[i]!.offsetMs).toBe(w.bars[i - 1]!.offsetMs + w.bars[i - 1]!.widthMs);
    const laid = w.bars.reduce((s, b) => s + b.widthMs, 0);
    expect(w.unaccountedMs).toBe(1000 - laid);
    expect(w.axisMs).toBe(1000);
  });

  it('keeps an unrecorded latency unknown: no width, counted, never 0 ms', () => {
    const w = shapeWaterfall(entries, { runDurationMs: null });
    const unknown = w.bars.find((b) => b.index === 5)!;
    expect(unknown.durationMs).toBeNull();
    expect(unknown.widthMs).toBe(0);
    expect(w.unknownDurations).toBe(1);
    expect(w.unaccountedMs).toBeNull();
  });

  it('uses recorded spans where the run has them, and says when only some bars have one', () => {
    const spans = new Map([[0, { startMs: 100, endMs: 140 }]]);
    const some = shapeWaterfall(entries, { runDurationMs: 1000, recorded: (x) => spans.get(x.index) ?? null });
    expect(some.placement).toBe('mixed');
    expect(some.bars[0]).toMatchObject({ offsetMs: 100, widthMs: 40, placement: 'recorded' });
    expect(some.bars[1]!.placement).toBe('ordered');
    const all = shapeWaterfall(entries, { runDurationMs: 1000, recorded: (x) => ({ startMs: x.index * 10, endMs: x.index * 10 + 5 }) });
    expect(all.placement).toBe('recorded');
    expect(all.unaccountedMs).toBeNull();
  });

  it("sums a step's model and tool time, waits, tokens and cost; unknown when a part is unknown", () => {
    const one = stepTotals(entries, 1);
    expect(one).toMatchObject({ modelMs: 70, toolMs: 5, waitMs: 250, tokens: 200 });
    expect(one.costUsd).toBeCloseTo(0.002, 10);
    expect(stepTotals(entries, 2)).toMatchObject({ modelMs: null, toolMs: null });
  });

  it('round-trips through its packed wire form', () => {
    const withError = [...entries, e(6, 3, 'tool', 2, { error: true, label: 'get_stock' })];
    expect(unpackWaterfall(packWaterfall(withError))).toEqual(withError);
  });

  it('carries each entry’s agent when a run has several, and sends none for a single-agent run', () => {
    expect(packWaterfall(entries).agent).toBeUndefined();
    expect(packWaterfall(entries.map((x) => ({ ...x, agent: 0 }))).agent).toBeUndefined();
    const tree = entries.map((x, i) => ({ ...x, agent: i % 3 === 0 ? null : i % 2 }));
    const back = unpackWaterfall(packWaterfall(tree));
    expect(back.map((x) => x.agent ?? null)).toEqual(tree.map((x) => x.agent));
  });
});

describe('a page of the waterfall', () => {
  // 1,203 bars of 401 steps (three a step), some placed by their recorded span and the rest laid in order after them.
  const long = Array.from({ length: 1203 }, (_, i) =>
    e(i, Math.floor(i / 3), i % 3 === 0 ? 'model' : 'tool', i % 7 === 0 ? null : 10 + (i % 5), i % 4 === 0 ? { recorded: { startMs: i * 20, endMs: i * 20 + 9 } } : {}),
  );
  const whole = shapeWaterfall(long, { runDurationMs: 60_000 });

  it('holds its bars where the whole waterfall places them, with the facts of the whole', () => {
    for (const page of [0, 1, 2]) {
      const answer = JSON.parse(JSON.stringify(waterfallPage(long, 60_000, page, 500))) as ReturnType<typeof waterfallPage>;
      expect(answer).toMatchObject({ total: 1203, from: page * 500, pageSize: 500, axisMs: whole.axisMs, placement: whole.placement, unknownDurations: whole.unknownDurations, unaccountedMs: whole.unaccountedMs });
      expect(barsOfAnswer(answer)).toEqual(whole.bars.slice(page * 500, page * 500 + 500));
    }
    // Past the end: no bars, the same facts.
    expect(waterfallPage(long, 60_000, 3, 500)).toMatchObject({ total: 1203, offsetMs: [] });
  });

  it("names each page's steps, so a step's bars are found on the pages that hold them", () => {
    const answer = waterfallPage(long, 60_000, 0, 500);
    expect(answer.pageSteps).toEqual([
      [0, 166],
      [166, 333],
      [333, 400],
    ]);
    expect(pagesOfStep(answer, 166)).toEqual([0, 1]);
    expect(pagesOfStep(answer, 200)).toEqual([1]);
    expect(pagesOfStep(answer, 401)).toEqual([]);
  });

  it('holds every bar when all are asked for (a run of several agents)', () => {
    const all = waterfallPage(long, 60_000, 'all');
    expect(all).toMatchObject({ total: 1203, from: 0, pageSize: 1203, pageSteps: [[0, 400]] });
    expect(barsOfAnswer(all)).toEqual(whole.bars);
  });

  it('is unpacked once, however many parts of the page read it', () => {
    const answer = waterfallPage(entries, 1000, 0);
    expect(barsOfAnswer(answer)).toBe(barsOfAnswer(answer));
    expect(barsOfAnswer(answer)).toEqual(shapeWaterfall(entries, { runDurationMs: 1000 }).bars);
  });
});

describe('a streamed call’s time to first token on the wire form', () => {
  const entry = (o: Partial<WaterfallEntry>): WaterfallEntry => ({ index: 0, step: 1, kind: 'model', label: 'model call 1', durationMs: 900, tokens: 10, costUsd: null, error: false, ...o });
  it('goes through pack and unpack as measured, and only for the calls that have one', () => {
    const entries = [entry({ timeToFirstTokenMs: 212.5 }), entry({ index: 1, label: 'model call 2' })];
    expect(unpackWaterfall(packWaterfall(entries))).toEqual(entries);
    expect(packWaterfall([entry({})]).timeToFirstTokenMs).toBeUndefined();
  });
});
