/**
 * A run's waterfall from what it stored: each model call's latency, tokens and priced cost, each tool
 * call's latency and error, its compaction and guard events, model-call retries as waits; another
 * tenant's run has none. A run recorded before times were has its bars laid in trajectory order,
 * saying their start is not recorded; a run with recorded times (or an imported trace) has each bar
 * where it happened, gaps kept.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { packWaterfall, shapeWaterfall, stepTotals, unpackWaterfall } from '@/lib/charts/waterfall';
import { importSpanRecords } from '@/lib/otel/import/import-traces';
import { readOtlpJson, readOtlpJsonText } from '@/lib/otel/import/read-otlp';
import { otlpDocument, plannerTrace } from '@/lib/otel/testing/agent-traces';
import { getRunSummaryOrThrow } from '@/lib/db/runs/runs-read';
import { saveRun } from '@/lib/db/runs/runs-write';
import { makeMeta, makeRun } from '@/lib/db/testing/run-fixtures';
import { testProviders, type TestDatabase } from '@/lib/db/testing/test-databases';
import type { CallTime, RunResult, TrajectoryStep } from '@/lib/harness/types';
import { loadWaterfall } from './load-waterfall';

const [sqlite] = await testProviders();

describe('the waterfall of a stored run', () => {
  let t: TestDatabase;
  let run: RunResult;
  let id: string;
  beforeAll(async () => {
    t = await sqlite!.create();
    run = makeRun({ rounds: 3 });
    run.trajectory.push({ kind: 'model_retry', step: 3, attempt: 1, reason: 'rate_limited', delayMs: 250, detail: '429' });
    id = await saveRun(run, makeMeta({ tenant: 'kittiwake' }), t.db);
  });
  afterAll(async () => {
    await t?.drop();
  });

  it('has one bar per model call, tool call, retry and event, with latency, tokens and cost', async () => {
    const w = (await loadWaterfall(id, 'kittiwake', t.db))!;
    const turns = run.trajectory.filter((s) => s.kind === 'model_turn');
    const tools = run.trajectory.filter((s) => s.kind === 'tool_call');
    const model = w.entries.filter((e) => e.kind === 'model');
    // The fixture's model is the fake one: its latency is scripted, so it is the bar's `simulatedMs`, never its
    // length; with no recorded start and end, the wall clock a call took is unknown (issue 43: bars vs labels).
    expect(model.map((m) => m.simulatedMs)).toEqual(turns.map((m) => m.latencyMs));
    expect(model.map((m) => m.durationMs)).toEqual(turns.map(() => null));
    expect(model.map((m) => m.tokens)).toEqual(turns.map((m) => (m.inputTokens ?? 0) + (m.outputTokens ?? 0)));
    expect(w.entries.filter((e) => e.kind === 'tool').map((e) => e.error)).toEqual(tools.map((c) => c.isError));
    expect(w.entries.filter((e) => e.kind === 'retry_wait')).toEqual([expect.objectContaining({ step: 3, durationMs: 250 })]);
    expect(w.entries.some((e) => e.kind === 'compaction')).toBe(true);
    // The fixture's run uses the fake model: its calls cost nothing (known), they are not "unknown".
    expect(model.every((m) => m.costUsd === 0)).toBe(true);
    const shaped = shapeWaterfall(w.entries, { runDurationMs: w.runDurationMs });
    expect(shaped.placement).toBe('ordered');
    expect(stepTotals(w.entries, 1).modelMs).toBeNull();
  });

  it('draws an imported run too (an OTLP agent trace): its model and tool calls', async () => {
    const records = await readOtlpJson([readFileSync('lib/otel/testing/fixtures/genai-python-agent.json')]);
    const imported = await importSpanRecords(records, { tenant: 'kittiwake', db: t.db });
    const w = (await loadWaterfall(imported.runs[0]!.id, 'kittiwake', t.db))!;
    expect(w.entries.filter((e) => e.kind === 'tool').map((e) => e.label)).toContain('get_weather');
    expect(w.entries.some((e) => e.kind === 'model')).toBe(true);
    expect(JSON.parse(JSON.stringify(packWaterfall(w.entries)))).toEqual(packWaterfall(w.entries));
    // The trace's own span times place its bars (observed before: laid end to end, marked not recorded).
    expect(shapeWaterfall(unpackWaterfall(packWaterfall(w.entries)), { runDurationMs: w.runDurationMs }).placement).not.toBe('ordered');
  });

  it('prices an imported multi-agent trace’s bars as its header does, with every bar placed where it happened (issue 31)', async () => {
    const doc = otlpDocument([{ seed: 'waterfall-planner', spans: plannerTrace() }]);
    const imported = await importSpanRecords(readOtlpJsonText(JSON.stringify(doc)), { tenant: 'kittiwake', db: t.db });
    const id = imported.runs[0]!.id;
    const w = (await loadWaterfall(id, 'kittiwake', t.db))!;
    const bars = w.entries.filter((e) => e.kind === 'model').map((e) => e.costUsd);
    expect(bars.every((c) => typeof c === 'number' && c > 0)).toBe(true);
    const header = await getRunSummaryOrThrow(id, t.db);
    expect(header.costUsd).toBeCloseTo(bars.reduce((n: number, c) => n + c!, 0), 12);
    expect(shapeWaterfall(w.entries, { runDurationMs: w.runDurationMs }).placement).toBe('recorded');
  });

  it('places each bar at the start and end the run recorded, gaps kept, through the packed wire form', async () => {
    const timed = makeRun({ rounds: 3 });
    const start = Date.parse(timed.startedAt);
    let ms = 0;
    const span = (): CallTime => {
      const startMs = ms + 40; // 40 ms of harness work before each call, which laying bars end to end hides
      ms = startMs + 25;
      return { startedAt: new Date(start + startMs).toISOString(), endedAt: new Date(start + ms).toISOString(), startMs, endMs: ms };
    };
    timed.trajectory = timed.trajectory.map((s): TrajectoryStep => (s.kind === 'model_turn' || s.kind === 'tool_call' ? { ...s, time: span() } : s));
    timed.durationMs = ms + 40;
    const timedId = await saveRun(timed, makeMeta({ tenant: 'kittiwake' }), t.db);
    const w = (await loadWaterfall(timedId, 'kittiwake', t.db))!;
    const expected = timed.trajectory.flatMap((s) => (s.kind === 'model_turn' || s.kind === 'tool_call' ? [{ startMs: s.time!.startMs, endMs: s.time!.endMs }] : []));
    const shaped = shapeWaterfall(unpackWaterfall(packWaterfall(w.entries)), { runDurationMs: w.runDurationMs });
    const calls = shaped.bars.filter((b) => b.kind === 'model' || b.kind === 'tool');
    expect(calls.map((b) => ({ startMs: b.offsetMs, endMs: b.offsetMs + b.widthMs }))).toEqual(expected);
    expect(calls.every((b) => b.placement === 'recorded')).toBe(true);
    // A bar's figure is its own length (wall clock); the fake model's scripted latency travels apart, as simulated.
    expect(calls.every((b) => b.durationMs === b.widthMs)).toBe(true);
    const turns = timed.trajectory.filter((s) => s.kind === 'model_turn');
    expect(shaped.bars.filter((b) => b.kind === 'model').map((b) => b.simulatedMs)).toEqual(turns.map((m) => m.latencyMs));
  });

  it('gives each bar of a run of several agents its agent, and a call priced on its own its cost (null: unknown)', async () => {
    const tree = makeRun({ rounds: 3 });
    const rollup = { modelCalls: 1, toolCalls: 1, inputTokens: 1, outputTokens: 1, costUsd: null, costNote: '', latencyMs: null, outcome: 'completed' as const, outcomeDetail: '' };
    tree.agents = [
      { id: 'p', name: 'planner', path: ['planner'], parent: null, entered: 'root', parallelGroup: null, transitions: tree.transitions, rollup },
      { id: 'c', name: 'checker', path: ['planner', 'checker'], parent: 0, entered: 'delegate', parallelGroup: null, transitions: [], rollup },
    ];
    // Steps 2 and later belong to the sub-agent; the first model call was priced alone, the second had no price.
    let turns = 0;
    tree.trajectory = tree.trajectory.map((s): TrajectoryStep => {
      const agent = s.step >= 2 ? { agent: 1 } : {};
      if (s.kind !== 'model_turn') return { ...s, ...agent };
      turns += 1;
      return { ...s, ...agent, ...(turns === 1 ? { costUsd: 0.0009, costNote: 'gpt-4o-mini at its list price' } : turns === 2 ? { costUsd: null, costNote: 'no price for gcp:gemini-9' } : {}) };
    });
    const treeId = await saveRun(tree, makeMeta({ tenant: 'kittiwake' }), t.db);
    const w = (await loadWaterfall(treeId, 'kittiwake', t.db))!;
    expect(w.entries.filter((e) => e.step < 2).every((e) => (e.agent ?? null) === null || e.agent === 0)).toBe(true);
    expect(w.entries.filter((e) => e.step >= 2 && e.kind !== 'approval_wait').every((e) => e.agent === 1)).toBe(true);
    const model = w.entries.filter((e) => e.kind === 'model');
    expect(model[0]!.costUsd).toBe(0.0009);
    expect(model[1]!.costUsd).toBeNull();
    expect(unpackWaterfall(packWaterfall(w.entries)).map((e) => e.agent ?? null)).toEqual(w.entries.map((e) => e.agent ?? null));
  });

  it("answers nothing for another tenant's run", async () => {
    expect(await loadWaterfall(id, 'puffin', t.db)).toBeNull();
  });
});
