import { describe, expect, it } from 'vitest';
import type { RunResult, TrajectoryStep } from '../harness';
import { measureRun } from './online-metrics';
import { sampledRun } from './sampling';

const tool = (step: number, name: string, args: Record<string, string>, extra: Partial<Record<string, unknown>> = {}) =>
  ({ kind: 'tool_call', step, name, arguments: args, resultContent: { ok: true }, validationError: null, blockedBy: null, isError: false, executed: true, ...extra }) as unknown as TrajectoryStep;

const run = (trajectory: TrajectoryStep[], o: Partial<RunResult> = {}) => ({
  trajectory,
  finalAnswer: 'There are 4 blue widgets.',
  durationMs: 1200,
  costEstimate: { usd: 0.002, note: '', known: true },
  ...o,
});

describe('online metrics of a run', () => {
  it('counts loop findings: three identical calls are a loop and a repeated call', () => {
    const same = [1, 2, 3].map((s) => tool(s, 'get_stock', { sku: 'A' }));
    const m = measureRun('loop_findings', run(same));
    expect(m.score).toBe(0);
    expect(m.value).toBeGreaterThanOrEqual(2);
    expect(m.detail).toContain('loop');
    expect(measureRun('loop_findings', run([tool(1, 'get_stock', { sku: 'A' })]))).toMatchObject({ score: 1, value: 0 });
  });

  it('rates invalid calls, and gives no score to a run without tool calls', () => {
    const m = measureRun('invalid_call_rate', run([tool(1, 'a', {}), tool(2, 'b', {}, { validationError: 'sku: required' }), tool(3, 'c', {}), tool(4, 'd', {})]));
    expect(m).toMatchObject({ score: 0.75, value: 0.25 });
    expect(measureRun('invalid_call_rate', run([]))).toMatchObject({ score: null, value: null });
  });

  it('counts blocked calls and guard trips', () => {
    expect(measureRun('blocked_calls', run([tool(1, 'a', {}, { blockedBy: 'write_gate' })]))).toMatchObject({ score: 0, value: 1 });
    expect(measureRun('guard_trips', run([{ kind: 'guard', step: 2 } as unknown as TrajectoryStep]))).toMatchObject({ score: 0, value: 1 });
  });

  it('keeps an unknown cost unknown (null), never $0', () => {
    expect(measureRun('cost', run([], { costEstimate: { usd: null, note: 'no price', known: false } }), { max: 1 })).toMatchObject({ score: null, value: null });
    expect(measureRun('cost', run([]), { max: 0.001 })).toMatchObject({ score: 0, value: 0.002 });
    expect(measureRun('latency', run([]), { max: 5000 })).toMatchObject({ score: 1, value: 1200 });
  });

  it('names the kinds a detector found, never the values', () => {
    const m = measureRun('guardrail', run([], { finalAnswer: 'Mail jane.doe@example.com for the stock.' }), { detectors: ['no_pii'] });
    expect(m.score).toBe(0);
    expect(m.detail).not.toContain('jane.doe');
  });
});

describe('judge sampling', () => {
  it('is the same for a run every time and holds the rate to ±1 pp over 10,000 runs', () => {
    const ids = Array.from({ length: 10_000 }, (_, i) => `run-${i.toString(36)}-${(i * 7919) % 1000}`);
    const first = ids.map((id) => sampledRun(id, 'ev1', 0.2));
    expect(ids.map((id) => sampledRun(id, 'ev1', 0.2))).toEqual(first);
    const share = first.filter(Boolean).length / ids.length;
    expect(Math.abs(share - 0.2)).toBeLessThanOrEqual(0.01);
    // Another judge samples other runs.
    expect(ids.map((id) => sampledRun(id, 'ev2', 0.2))).not.toEqual(first);
  });
});
