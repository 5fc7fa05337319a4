/**
 * A run's waterfall from what it stored: each model call's latency, tokens and priced cost, each tool
 * call's latency and error, its compaction and guard events, model-call retries as waits; another
 * tenant's run has none. The bars are laid in trajectory order and say their start is not recorded.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { packWaterfall, shapeWaterfall, stepTotals } from '@/lib/charts/waterfall';
import { importSpanRecords } from '@/lib/otel/import/import-traces';
import { readOtlpJson } from '@/lib/otel/import/read-otlp';
import { saveRun } from '@/lib/db/runs-write';
import { makeMeta, makeRun } from '@/lib/db/testing/run-fixtures';
import { testProviders, type TestDatabase } from '@/lib/db/testing/test-databases';
import type { RunResult } from '@/lib/harness/types';
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
    expect(model.map((m) => m.durationMs)).toEqual(turns.map((m) => m.latencyMs));
    expect(model.map((m) => m.tokens)).toEqual(turns.map((m) => m.inputTokens + m.outputTokens));
    expect(w.entries.filter((e) => e.kind === 'tool').map((e) => e.error)).toEqual(tools.map((c) => c.isError));
    expect(w.entries.filter((e) => e.kind === 'retry_wait')).toEqual([expect.objectContaining({ step: 3, durationMs: 250 })]);
    expect(w.entries.some((e) => e.kind === 'compaction')).toBe(true);
    // The fixture's run uses the fake model: its calls cost nothing (known), they are not "unknown".
    expect(model.every((m) => m.costUsd === 0)).toBe(true);
    const shaped = shapeWaterfall(w.entries, { runDurationMs: w.runDurationMs });
    expect(shaped.placement).toBe('ordered');
    expect(stepTotals(w.entries, 1).modelMs).toBe(turns[0]!.latencyMs);
  });

  it('draws an imported run too (an OTLP agent trace): its model and tool calls', async () => {
    const records = await readOtlpJson([readFileSync('lib/otel/testing/fixtures/genai-python-agent.json')]);
    const imported = await importSpanRecords(records, { tenant: 'kittiwake', db: t.db });
    const w = (await loadWaterfall(imported.runs[0]!.id, 'kittiwake', t.db))!;
    expect(w.entries.filter((e) => e.kind === 'tool').map((e) => e.label)).toContain('get_weather');
    expect(w.entries.some((e) => e.kind === 'model')).toBe(true);
    expect(JSON.parse(JSON.stringify(packWaterfall(w.entries)))).toEqual(packWaterfall(w.entries));
  });

  it("answers nothing for another tenant's run", async () => {
    expect(await loadWaterfall(id, 'puffin', t.db)).toBeNull();
  });
});
