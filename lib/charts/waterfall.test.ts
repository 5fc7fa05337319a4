import { describe, expect, it } from 'vitest';
import { packWaterfall, shapedAnswer, shapeWaterfall, stepTotals, unpackWaterfall, type WaterfallEntry } from './waterfall';

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

describe('shapedAnswer', () => {
  it('shapes an answer once, however many parts of the page read it, and a new answer anew', () => {
    const answer = { packed: packWaterfall(entries), runDurationMs: 1000 };
    const first = shapedAnswer(answer);
    expect(shapedAnswer(answer)).toBe(first);
    expect(first.waterfall).toEqual(shapeWaterfall(unpackWaterfall(answer.packed), { runDurationMs: 1000 }));
    const next = shapedAnswer({ ...answer, runDurationMs: 2000 });
    expect(next).not.toBe(first);
    expect(next.waterfall.axisMs).toBe(2000);
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
