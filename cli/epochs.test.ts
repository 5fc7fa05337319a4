/**
 * `--epochs N` on eval and matrix, and the noisy fake model from the command line: the JSON the
 * docs (guides/teaching-with-weakness-flags.md) document, zero-width intervals for the deterministic model, identical JSON for the same
 * seed, and clear refusals naming the flag.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runInProcess } from './testing/in-process';

const ROOT = path.resolve(import.meta.dirname, '..');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'epochs-'));
// Eight cases of the bundled golden file keep each command to a few hundred runs.
const golden = path.join(dir, 'golden.jsonl');
fs.writeFileSync(golden, fs.readFileSync(path.join(ROOT, 'data/golden/stockroom_golden_own_v1.jsonl'), 'utf8').split('\n').filter(Boolean).slice(0, 8).join('\n') + '\n');

interface Iv {
  value: number;
  low: number;
  high: number;
  n: number;
  method: string;
}

describe('--epochs', () => {
  it('eval --epochs 3 --json: three runs per case, each marked with its epoch, zero-width intervals for the fake model', async () => {
    const r = await runInProcess('eval', ['--golden', golden, '--epochs', '3', '--json'], {});
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout) as { epochs: number; golden: { cases: number }; cases: { id: string; epoch: number }[]; metrics: Record<string, number>; intervals: { epochs: number; runs: number; cases: number; deterministic: boolean; metrics: Record<string, Iv> } };
    expect(report.epochs).toBe(3);
    expect(report.golden.cases).toBe(8);
    expect(report.cases).toHaveLength(24);
    expect(report.cases.slice(0, 3).map((c) => c.epoch)).toEqual([0, 1, 2]);
    expect(report.intervals).toMatchObject({ epochs: 3, runs: 24, cases: 8, deterministic: true });
    for (const [key, iv] of Object.entries(report.intervals.metrics)) {
      expect(iv.low, key).toBe(iv.value);
      expect(iv.high, key).toBe(iv.value);
    }
    expect(report.intervals.metrics.tool_selection_accuracy!.value).toBe(report.metrics.tool_selection_accuracy);
  });

  it('gives the fake model the same metrics with 3 epochs as with 1', async () => {
    const one = JSON.parse((await runInProcess('matrix', ['--golden', golden, '--json'], {})).stdout) as Record<string, { metrics: Record<string, number> }>;
    const three = JSON.parse((await runInProcess('matrix', ['--golden', golden, '--epochs', '3', '--json'], {})).stdout) as Record<string, { metrics: Record<string, number>; paired_deltas?: Record<string, { low: number; high: number; delta: number; test: string }> }> & { epochs: number };
    expect(three.epochs).toBe(3);
    for (const s of ['none', 'ambiguous_tool_desc', 'oversized_payload', 'naive_retry', 'injection_unguarded']) {
      expect({ ...three[s]!.metrics, cases: 0 }).toEqual({ ...one[s]!.metrics, cases: 0 });
    }
    for (const d of Object.values(three.ambiguous_tool_desc!.paired_deltas!)) {
      expect(d).toMatchObject({ low: d.delta, high: d.delta, test: 'none_deterministic' });
    }
  });

  it('matrix --epochs 2 --json on fake-noisy: the same seed prints identical JSON twice, another seed does not', async () => {
    const args = (seed: string) => ['--golden', golden, '--model', 'fake-noisy', '--temperature', '1.5', '--seed', seed, '--epochs', '2', '--json'];
    const a = await runInProcess('matrix', args('4'), {});
    const b = await runInProcess('matrix', args('4'), {});
    const c = await runInProcess('matrix', args('5'), {});
    expect(a.code).toBe(0);
    expect(b.stdout).toBe(a.stdout);
    expect(c.stdout).not.toBe(a.stdout);
    const json = JSON.parse(a.stdout) as Record<string, { intervals: { deterministic: boolean; metrics: Record<string, Iv> }; paired_deltas?: Record<string, { test: string; p_adjusted: number | null; verdict: string }> }> & { significance: { correction: string; cells: number } };
    expect(json.none!.intervals.deterministic).toBe(false);
    expect(json.none!.intervals.metrics.answer_correctness!.method).toBe('Wilson score, clustered by case (design effect)');
    expect(json.significance).toMatchObject({ correction: 'holm', cells: 24 });
    const cell = json.naive_retry!.paired_deltas!.loop_rate!;
    expect(['sign']).toContain(cell.test);
    expect(['higher', 'lower', 'indistinguishable', 'unchanged']).toContain(cell.verdict);
  });

  it('prints intervals beside the summary metrics of a noisy eval, and the significance table of a noisy matrix', async () => {
    const e = await runInProcess('eval', ['--golden', golden, '--model', 'fake-noisy', '--epochs', '2'], {});
    expect(e.stdout).toMatch(/2 epoch\(s\) × 8 cases = 16 runs; 95% intervals: /);
    expect(e.stdout).toMatch(/tool_selection_accuracy\s+[\d.]+ \[[\d.]+, [\d.]+\]/);
    const m = await runInProcess('matrix', ['--golden', golden, '--model', 'fake-noisy', '--epochs', '2'], {});
    expect(m.stdout).toContain('deltas against none, paired by case (2 epoch(s))');
    expect(m.stdout).toContain('not distinguishable from none');
  });

  it.each([['0'], ['101'], ['two'], ['1.5']])('refuses --epochs %s naming the flag', async (value) => {
    const r = await runInProcess('eval', ['--golden', golden, '--epochs', value], {});
    expect(r).toMatchObject({ code: 2, stderr: expect.stringContaining('--epochs must be an integer between 1 and 100') });
  });

  it('refuses --temperature for the deterministic model, --epochs with --replay-from, and bad seeds and temperatures', async () => {
    const temp = await runInProcess('eval', ['--golden', golden, '--temperature', '1'], {});
    expect(temp).toMatchObject({ code: 2, stderr: expect.stringContaining('apply to the noisy fake model only') });
    const replay = await runInProcess('eval', ['--golden', golden, '--epochs', '2', '--replay-from', 'suite_x'], {});
    expect(replay).toMatchObject({ code: 2, stderr: expect.stringContaining('cannot be combined with --epochs') });
    const seed = await runInProcess('eval', ['--golden', golden, '--model', 'fake-noisy', '--seed=-1'], {});
    expect(seed).toMatchObject({ code: 2, stderr: expect.stringContaining('STOCKROOM_SEED must be >= 0') });
    const envTemp = await runInProcess('eval', ['--golden', golden], { STOCKROOM_TEMPERATURE: 'warm', STOCKROOM_MODEL: 'fake-noisy' });
    expect(envTemp).toMatchObject({ code: 2, stderr: expect.stringContaining("STOCKROOM_TEMPERATURE must be a number, got 'warm'") });
  });

  it('gate --rule interval on a mock report fails exactly the checks the point rule fails (zero-width intervals)', async () => {
    const out = path.join(dir, 'weak.json');
    const limits = path.join(dir, 'limits.json');
    // One check that passes and one that fails whatever the cases: tokens above a 10-token maximum.
    fs.writeFileSync(limits, JSON.stringify({ version: 1, min: { tool_selection_accuracy: 0.1 }, max: { mean_input_tokens: 10 } }));
    expect((await runInProcess('eval', ['--golden', golden, '--out', out], {})).code).toBe(0);
    const point = await runInProcess('gate', ['--report', out, '--thresholds', limits], {});
    const interval = await runInProcess('gate', ['--report', out, '--thresholds', limits, '--rule', 'interval'], {});
    expect(point.code).toBe(1);
    expect(interval.code).toBe(1);
    // The same checks fail by the same margins (the interval rule's messages also show the [low, high]).
    const failures = (text: string) => text.split('\n').slice(1).filter(Boolean).map((l) => [l.trim().split(' ')[0], l.match(/by ([\d.]+)$/)?.[1]]);
    expect(failures(interval.stderr)).toEqual(failures(point.stderr));
    expect(failures(point.stderr)).toHaveLength(1);
    expect(interval.stdout).toContain('deterministic model: zero-width intervals, the same as point');
  });

  it('matrix --estimate prices a live matrix without credentials and runs nothing live; refused for the fake models', async () => {
    const r = await runInProcess('matrix', ['--golden', golden, '--model', 'openai:gpt-4o-mini', '--epochs', '3', '--estimate', '--json'], {
      OPENAI_API_KEY: undefined,
      STOCKROOM_PROVIDER_LIMITS: 'openai=rpm:60',
    });
    expect(r.code).toBe(0);
    const { estimate } = JSON.parse(r.stdout) as { estimate: { runs: number; modelCalls: number; usd: number | null; minMinutes: number | null } };
    // 5 settings × 8 cases × 3 epochs; at 60 requests a minute the calls alone take calls / 60 minutes.
    expect(estimate.runs).toBe(120);
    expect(estimate.usd).toBeGreaterThan(0);
    expect(estimate.minMinutes).toBeCloseTo(estimate.modelCalls / 60, 6);
    expect(await runInProcess('matrix', ['--golden', golden, '--estimate'], {})).toMatchObject({ code: 2, stderr: expect.stringContaining('--estimate is for a live --model') });
  });
});
