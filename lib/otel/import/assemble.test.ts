/**
 * A run is a trace, not a request: one trace delivered over several requests (root last, as a
 * SimpleSpanProcessor or a slow tool makes it), a payload sent twice, and a batch without the root,
 * on SQLite and PostgreSQL.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { settleQuietTraces } from '../../db/traces/otlp-store';
import { getRunOrThrow } from '../../db/runs/runs-read';
import { countRuns, listRuns } from '../../db/runs/runs-list';
import { describeOnDatabases } from '../../db/testing/on-databases';
import { importSpanRecords } from './import-traces';
import { readOtlpJson } from './read-otlp';
import { readOtlpLogsJson } from './log-record';
import { AGENT } from '../testing/record/scenario';
import type { SpanRecord } from './span-record';

const FIXTURE = path.resolve(import.meta.dirname, '../testing/fixtures/genai-python-agent.json');

async function fixtureSpans(): Promise<SpanRecord[]> {
  return readOtlpJson([readFileSync(FIXTURE)]);
}

/** The fixture's spans under a fresh trace id, so every test has its own trace. */
function retrace(spans: SpanRecord[], traceId: string): SpanRecord[] {
  return spans.map((s) => ({ ...s, traceId, attributes: { ...s.attributes, 'gen_ai.conversation.id': traceId } }));
}

let counter = 0;
const newTraceId = () => (0xa000 + ++counter).toString(16).padStart(32, '0');

describeOnDatabases('assembling runs from traces on $name', ({ test, db }) => {
  const tenant = 'acme';

  const runsOfTrace = async (traceId: string) => (await listRuns({ filters: { source: 'imported' }, limit: 200 }, db)).items.filter((r) => r.harnessRunId === traceId);

  test('builds one run from a trace delivered over three requests with the root last, running until the root arrives', async () => {
    const traceId = newTraceId();
    const spans = retrace(await fixtureSpans(), traceId);
    const root = spans.find((s) => s.parentSpanId === null)!;
    const children = spans.filter((s) => s !== root);
    const first = await importSpanRecords(children.slice(0, 2), { tenant, db });
    expect(first.runs).toMatchObject([{ status: 'running' }]);
    const runId = first.runs[0]!.id;
    expect((await getRunOrThrow(runId, db)).run.status).toBe('running');
    const second = await importSpanRecords(children.slice(2), { tenant, db });
    expect(second.runs.map((r) => r.id)).toEqual([runId]);
    const third = await importSpanRecords([root], { tenant, db });
    expect(third.runs).toEqual([expect.objectContaining({ id: runId, status: 'finished', modelCalls: 2, toolCalls: 2 })]);
    expect(await runsOfTrace(traceId)).toHaveLength(1);
    const { run } = await getRunOrThrow(runId, db);
    expect(run.status).toBe('finished');
    expect(run.query).toBe('Weather in Paris and Oslo?');
    expect(run.modelId).toBe('gpt-4o-mini');
    expect(run.trajectory.map((s) => s.kind)).toEqual(['model_turn', 'tool_call', 'tool_call', 'model_turn']);
    expect(run.finalAnswer).toBe("Paris: 14 °C and rain. Oslo's forecast timed out.");
    expect(run.usage.totalTokens).toBe(312);
  });

  test('adds nothing when the same payload is sent twice', async () => {
    const traceId = newTraceId();
    const spans = retrace(await fixtureSpans(), traceId);
    const once = await importSpanRecords(spans, { tenant, db });
    const before = (await countRuns({}, {}, db)).count;
    const twice = await importSpanRecords(spans, { tenant, db });
    expect(twice).toMatchObject({ runs: [], duplicateSpans: spans.length, skippedSpans: 0 });
    expect((await countRuns({}, {}, db)).count).toBe(before);
    expect((await runsOfTrace(traceId)).map((r) => r.id)).toEqual([once.runs[0]!.id]);
  });

  test('accepts a batch holding only the root of a trace whose children came before, and one whose children come after', async () => {
    const traceId = newTraceId();
    const spans = retrace(await fixtureSpans(), traceId);
    const root = spans.find((s) => s.parentSpanId === null)!;
    // The root alone first: an agent span, kept, no run yet (no model or tool span).
    const rootFirst = await importSpanRecords([root], { tenant, db });
    expect(rootFirst).toMatchObject({ runs: [], pendingTraces: 1, skippedSpans: 0 });
    const rest = await importSpanRecords(spans.filter((s) => s !== root), { tenant, db });
    expect(rest.runs).toEqual([expect.objectContaining({ status: 'finished', modelCalls: 2 })]);
    expect(await runsOfTrace(traceId)).toHaveLength(1);
  });

  test('keeps a trace from another tenant apart, and refuses a trace with no agent span, storing nothing', async () => {
    const traceId = newTraceId();
    const spans = retrace(await fixtureSpans(), traceId);
    const a = await importSpanRecords(spans, { tenant: 'acme', db });
    const b = await importSpanRecords(spans, { tenant: 'globex', db });
    expect(b.runs).toHaveLength(1);
    expect(b.runs[0]!.id).not.toBe(a.runs[0]!.id);
    const before = (await countRuns({}, {}, db)).count;
    const http: SpanRecord = { ...spans[0]!, traceId: newTraceId(), spanId: 'c7ad6b7169203331', parentSpanId: null, name: 'GET /', attributes: { 'http.method': 'GET' } };
    await expect(importSpanRecords([http], { tenant, db })).rejects.toThrow(/none of the 1 trace\(s\) has a model or tool span/);
    const mixed = await importSpanRecords([http, ...retrace(spans, newTraceId())], { tenant, db });
    expect(mixed).toMatchObject({ skippedTraces: 1, skippedSpans: 1 });
    expect((await countRuns({}, {}, db)).count).toBe(before + 1);
  });

  test('finishes the run of a trace whose root never came once it has been quiet long enough', async () => {
    const traceId = newTraceId();
    const spans = retrace(await fixtureSpans(), traceId).filter((s) => s.parentSpanId !== null);
    const { runs } = await importSpanRecords(spans, { tenant, db });
    expect(runs[0]!.status).toBe('running');
    expect(await settleQuietTraces(60_000, new Date(Date.now() + 30_000), db)).toBe(0);
    expect((await getRunOrThrow(runs[0]!.id, db)).run.status).toBe('running');
    expect(await settleQuietTraces(60_000, new Date(Date.now() + 120_000), db)).toBeGreaterThanOrEqual(1);
    expect((await getRunOrThrow(runs[0]!.id, db)).run.status).toBe('finished');
  });

  test('stores no secret an imported trace carried (span attributes, tool results, messages)', async () => {
    const traceId = newTraceId();
    const spans = retrace(await fixtureSpans(), traceId);
    const root = spans.find((s) => s.parentSpanId === null)!;
    const key = 'sk-abcdefghijklmnopqrstuvwx';
    const custom: SpanRecord = { ...root, spanId: 'aaaaaaaaaaaaaaaa', parentSpanId: root.spanId, name: 'fetch forecast', attributes: { 'http.request.header.authorization': 'Bearer abcdefghijklmnop1234', 'app.note': `used ${key}` } };
    const leaky = spans.map((s) => (s.name.startsWith('execute_tool') ? { ...s, attributes: { ...s.attributes, 'gen_ai.tool.call.result': JSON.stringify({ api_key: 'hunter2-hunter2', echo: key }) } } : s));
    const { runs } = await importSpanRecords([...leaky, custom], { tenant, db });
    const stored = JSON.stringify((await getRunOrThrow(runs[0]!.id, db)).run);
    expect(stored).toContain('fetch forecast');
    expect(stored).toContain('[REDACTED]');
    expect(stored).not.toContain(key);
    expect(stored).not.toContain('hunter2');
    expect(stored).not.toContain('abcdefghijklmnop1234');
  });

  test('joins a bare instrumented client’s per-call traces into one run, and places log records sent before their spans', async () => {
    const fixtures = path.dirname(FIXTURE);
    const calls = await readOtlpJson([readFileSync(path.join(fixtures, 'openinference-openai.json'))]);
    const traces = [...new Set(calls.map((s) => s.traceId))];
    expect(traces).toHaveLength(2);
    const later = calls.filter((s) => s.traceId === traces[1]);
    const earlier = calls.filter((s) => s.traceId === traces[0]);
    // One request per call, in the order the calls were made (an exporter's order).
    const [first, second] = earlier[0]!.startNs < later[0]!.startNs ? [earlier, later] : [later, earlier];
    const a = await importSpanRecords(first, { tenant, db });
    const b = await importSpanRecords(second, { tenant, db });
    expect(b.runs).toEqual([expect.objectContaining({ id: a.runs[0]!.id, modelCalls: 2, toolCalls: 1 })]);

    const logs = readOtlpLogsJson(readFileSync(path.join(fixtures, 'otel-genai-openai.logs.json'), 'utf8')).records;
    const spans = await readOtlpJson([readFileSync(path.join(fixtures, 'otel-genai-openai.json'))]);
    expect((await importSpanRecords([], { tenant: 'logs-first', db }, logs)).runs).toEqual([]);
    const { runs } = await importSpanRecords(spans, { tenant: 'logs-first', db });
    const { run } = await getRunOrThrow(runs[0]!.id, db);
    expect(run.query).toBe(AGENT.question);
    expect(run.systemPrompt).toBe(AGENT.system);
    expect(run.finalAnswer).toBe(AGENT.answer);
  });
});
