/**
 * Issue 31: our own export round-trips the tree. A multi-agent run (the planner trace,
 * imported) exported as GenAI spans through the real OTLP exporter imports back as the same run,
 * agents included; a single-agent harness run exports as before, its root an agent named stockroom.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunResult } from '../harness/types';
import { readOtlpJson, readOtlpJsonText } from './import/read-otlp';
import type { SpanRecord } from './import/span-record';
import { traceToRun } from './import/trace-to-run';
import { createRunTraceExporter } from './sdk-exporter';
import { otlpDocument, plannerTrace } from './testing/agent-traces';
import { startOtlpTestReceiver, type OtlpTestReceiver } from './testing/otlp-test-receiver';
import { sampleRuns } from './testing/sample-runs';

let receiver: OtlpTestReceiver;
beforeAll(async () => {
  receiver = await startOtlpTestReceiver();
});
afterAll(() => receiver.close());

async function roundTrip(run: RunResult): Promise<{ spans: SpanRecord[]; back: RunResult }> {
  const exporter = createRunTraceExporter({ tracesUrl: `${receiver.endpoint}/v1/traces`, protocol: 'http/json', serviceName: 'tree-export', captureContent: true, headers: {}, timeoutMillis: 1000 }, () => {});
  const before = receiver.requests.length;
  exporter.exportRun(run, { datasetName: 'tree' });
  await exporter.flush();
  await exporter.shutdown();
  const spans: SpanRecord[] = [];
  for (const r of receiver.requests.slice(before)) spans.push(...(await readOtlpJson([r.body])));
  return { spans, back: traceToRun(spans)!.run };
}

/** A run without what a trace's span ids make differ (ids are the exporter's own). */
const withoutSpanIds = (run: RunResult) => ({ ...run, trajectory: run.trajectory.map(({ spanId: _s, parentSpanId: _p, ...rest }) => rest) });

describe('exporting a tree of agents', () => {
  it('imports back as the same run, tree included', async () => {
    const original = traceToRun(readOtlpJsonText(JSON.stringify(otlpDocument([{ seed: 'export-planner', spans: plannerTrace() }]))))!.run;
    const { spans, back } = await roundTrip(original);
    const agentSpans = spans.filter((s) => s.attributes['gen_ai.operation.name'] === 'invoke_agent');
    expect(agentSpans.map((s) => s.attributes['gen_ai.agent.name'])).toEqual(expect.arrayContaining(['planner', 'inventory-checker']));
    const checker = agentSpans.find((s) => s.attributes['gen_ai.agent.name'] === 'inventory-checker')!;
    expect(spans.filter((s) => s.parentSpanId === checker.spanId).map((s) => s.attributes['gen_ai.operation.name']).sort()).toEqual(['chat', 'chat', 'execute_tool']);
    expect(back.agents).toEqual(original.agents);
    const { runId: _a, ...rest } = withoutSpanIds(back);
    const { runId: _b, ...expected } = withoutSpanIds(original);
    expect(rest.trajectory).toEqual(expected.trajectory);
    expect(rest.transitions).toEqual(expected.transitions);
    expect(rest.costEstimate.usd).toBeCloseTo(expected.costEstimate.usd!, 12);
    expect([rest.query, rest.finalAnswer, rest.terminationReason, rest.usage]).toEqual([expected.query, expected.finalAnswer, expected.terminationReason, expected.usage]);
  });

  it('exports a single-agent harness run as before, its root an agent named stockroom, and reads back with no agents list', async () => {
    const run = (await sampleRuns()).mixed;
    const { spans, back } = await roundTrip(run);
    const roots = spans.filter((s) => s.parentSpanId === null);
    expect(roots.map((r) => [r.name, r.attributes['gen_ai.agent.name']])).toEqual([['invoke_agent stockroom', 'stockroom']]);
    expect(spans.filter((s) => s.attributes['gen_ai.operation.name'] === 'invoke_agent')).toHaveLength(1);
    expect(back.agents).toBeUndefined();
    expect(back.trajectory.map((s) => s.kind)).toEqual(run.trajectory.map((s) => s.kind));
  });
});
