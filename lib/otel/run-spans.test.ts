/**
 * Issue 22 §3: exported spans use the times the loop recorded. Observed before: spans were laid end
 * to end from the run's start by each call's latency, so the first model call always started with
 * the run, gaps vanished, and a root span lasted far longer than its last child.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { CallTime, RunResult, ToolRecord, TrajectoryStep } from '../harness/types';
import { planRunSpans, type SpanPlan } from './run-spans';
import { sampleRuns } from './testing/sample-runs';

let mixed: RunResult;
beforeAll(async () => {
  mixed = (await sampleRuns()).mixed;
});

const OPTIONS = { captureContent: false };

/** The run with a synthetic timeline: each timed entry `gap` ms after the last one ended, lasting `length` ms. */
function withTimes(run: RunResult, gap: number, length: number): RunResult {
  const start = Date.parse(run.startedAt);
  let ms = 0;
  const span = (): CallTime => {
    const startMs = ms + gap;
    ms = startMs + length;
    return { startedAt: new Date(start + startMs).toISOString(), endedAt: new Date(start + ms).toISOString(), startMs, endMs: ms };
  };
  const trajectory = run.trajectory.map((s): TrajectoryStep => (s.kind === 'compaction' || s.kind === 'guardrail' || s.kind === 'span' || s.kind === 'tool_session' ? s : { ...s, time: span() }));
  return { ...run, trajectory, durationMs: ms + gap };
}

const chats = (root: SpanPlan) => root.children.filter((c) => c.name.startsWith('chat'));
const tools = (root: SpanPlan) => root.children.filter((c) => c.name.startsWith('execute_tool'));

describe('span times', () => {
  it('places each span where the loop recorded it, gaps included (observed: the first call started with the run)', () => {
    const run = withTimes(mixed, 100, 40);
    const root = planRunSpans(run, OPTIONS);
    const start = Date.parse(run.startedAt);
    const timed = run.trajectory.filter((s) => s.kind === 'model_turn' || s.kind === 'tool_call');
    expect(root.children.map((c) => [c.startMs - start, c.endMs - start])).toEqual(timed.map((s) => [s.time!.startMs, s.time!.endMs]));
    expect(chats(root)[0]!.startMs - start).toBe(100);
  });

  it('makes the root cover its children', () => {
    for (const run of [mixed, withTimes(mixed, 100, 40)]) {
      const root = planRunSpans(run, OPTIONS);
      for (const child of root.children) {
        expect(child.startMs).toBeGreaterThanOrEqual(root.startMs);
        expect(child.endMs).toBeLessThanOrEqual(root.endMs);
      }
    }
  });

  it('lets tool calls that ran at once overlap', () => {
    const run = withTimes(mixed, 10, 40);
    const [a, b] = run.trajectory.filter((s): s is ToolRecord => s.kind === 'tool_call' && s.step === 2);
    // The step's two lookups ran side by side.
    b!.time = { ...a!.time! };
    const [, spanA, spanB] = tools(planRunSpans(run, OPTIONS));
    expect(spanB!.startMs).toBeLessThan(spanA!.endMs);
    expect(spanA!.startMs).toBeLessThan(spanB!.endMs);
  });

  it('lays out a run recorded before times were as before, call after call from its start', () => {
    const old: RunResult = { ...mixed, trajectory: mixed.trajectory.map((s) => ({ ...s, time: undefined }) as TrajectoryStep) };
    const root = planRunSpans(old, OPTIONS);
    let cursor = Date.parse(old.startedAt);
    for (const child of root.children) {
      expect(child.startMs).toBe(cursor);
      cursor = child.endMs;
    }
  });
});

describe('times of an imported trace', () => {
  /** The sample Python agent's trace, its second tool call moved to start while the first still ran. */
  async function importedWithParallelTools(): Promise<RunResult> {
    const { readOtlpJson } = await import('./import/read-otlp');
    const { traceToRun } = await import('./import/trace-to-run');
    const fs = await import('node:fs');
    const raw = JSON.parse(fs.readFileSync(new URL('./testing/fixtures/genai-python-agent.json', import.meta.url), 'utf8')) as {
      resourceSpans: { scopeSpans: { spans: { name: string; startTimeUnixNano: string; endTimeUnixNano: string }[] }[] }[];
    };
    const tools = raw.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans)).filter((s) => s.name.startsWith('execute_tool'));
    tools[1]!.startTimeUnixNano = String(BigInt(tools[0]!.startTimeUnixNano) + 10_000_000n);
    const spans = await readOtlpJson([Buffer.from(JSON.stringify(raw))]);
    return traceToRun(spans)!.run;
  }

  it('keeps the times the tracer recorded, so tool calls that ran at once overlap on the way back out', async () => {
    const run = await importedWithParallelTools();
    const [first, second] = run.trajectory.filter((s): s is ToolRecord => s.kind === 'tool_call');
    // The fixture's root starts 100 ms before the first chat; the first tool 910 ms after the root.
    expect(first!.time).toMatchObject({ startMs: 910, endMs: 1010 });
    expect(second!.time!.startMs).toBeLessThan(first!.time!.endMs);
    const [a, b] = tools(planRunSpans(run, OPTIONS));
    expect(b!.startMs).toBeLessThan(a!.endMs);
  });
});

describe('a streamed call’s time to first token', () => {
  it('is exported on its chat span as gen_ai.response.time_to_first_chunk in seconds, and left out for a call that was not streamed', () => {
    let n = 0;
    const trajectory = mixed.trajectory.map((s): TrajectoryStep => (s.kind === 'model_turn' && (n += 1) === 1 ? { ...s, timeToFirstTokenMs: 250 } : s));
    const [first, ...rest] = chats(planRunSpans({ ...mixed, trajectory }, OPTIONS));
    expect(first!.attributes['gen_ai.response.time_to_first_chunk']).toBe(0.25);
    expect(rest.length).toBeGreaterThan(0);
    for (const chat of rest) expect(chat.attributes).not.toHaveProperty('gen_ai.response.time_to_first_chunk');
  });
});
