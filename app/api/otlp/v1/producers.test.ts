/**
 * Each row of issue 25: traces made by running the real libraries (fixtures recorded by
 * lib/otel/testing/record/record-fixtures.ts against the OpenAI wire stub) become one run per agent
 * run, with the system prompt, each call's messages, provider, finish reasons, tokens, cost, the
 * tool call and the answer in replay — also when a trace arrives one span per request and is then
 * sent again whole.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '@/scripts/db-migrate.mjs';
import { createTestDatabaseUrl } from '@/lib/db/testing/test-databases';
import { getModelInputAt, getRunOrThrow, getRunSteps } from '@/lib/db/runs/runs-read';
import { listRuns, listSessionRuns } from '@/lib/db/runs/runs-list';
import type { ModelTurn, RunResult, SpanStep, ToolRecord } from '@/lib/harness/types';
import { priceFor, usdAt } from '@/lib/models/prices';
import { hashToken } from '@/lib/otel/ingest-tokens';
import { importSpanRecords } from '@/lib/otel/import/import-traces';
import { readOtlpJson } from '@/lib/otel/import/read-otlp';
import { AGENT, FIXTURE_FILES, type Producer } from '@/lib/otel/testing/record/scenario';
import { POST as postLogs } from './logs/route';
import { POST as postTraces } from './traces/route';

const TOKEN = 'producers-token-0123456789abcdef';
const FIXTURES = path.resolve(import.meta.dirname, '../../../../lib/otel/testing/fixtures');
const env = { ...process.env };
let drop: () => Promise<void>;

beforeAll(async () => {
  const t = await createTestDatabaseUrl('sqlite');
  await migrate({ url: t.url });
  drop = t.drop;
  process.env.DATABASE_URL = t.url;
  process.env.STOCKROOM_OTLP_TOKENS = `acme:${hashToken(TOKEN)}`;
});

afterAll(async () => {
  process.env = env;
  await drop();
});

type Doc = { resourceSpans: Array<{ resource: unknown; scopeSpans: Array<{ scope?: unknown; spans: Array<{ traceId: string; parentSpanId?: string }> }> }> };
type LogDoc = { resourceLogs: Array<{ resource: unknown; scopeLogs: Array<{ scope?: unknown; logRecords: unknown[] }> }> };
const read = <T,>(name: string) => JSON.parse(readFileSync(path.join(FIXTURES, name), 'utf8')) as T;

const send = (handler: typeof postTraces, what: 'traces' | 'logs', body: unknown) =>
  handler(new Request(`http://127.0.0.1/api/otlp/v1/${what}`, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` } }));

/** Every span of a document as its own request (in the order the exporter wrote them). */
function oneSpanPerRequest(doc: Doc): Doc[] {
  return doc.resourceSpans.flatMap((rs) => rs.scopeSpans.flatMap((ss) => ss.spans.map((span) => ({ resourceSpans: [{ resource: rs.resource, scopeSpans: [{ scope: ss.scope, spans: [span] }] }] }))));
}

const traceIdsOf = (doc: Doc) => [...new Set(doc.resourceSpans.flatMap((rs) => rs.scopeSpans.flatMap((ss) => ss.spans.map((s) => s.traceId))))];

async function runsOf(doc: Doc): Promise<string[]> {
  const traces = new Set(traceIdsOf(doc));
  const { items } = await listRuns({ filters: { source: 'imported' }, limit: 200 });
  const ids: string[] = [];
  for (const item of items) {
    const stored = await getRunOrThrow(item.id);
    const config = stored.meta.config as { traceId?: string; traceIds?: string[] };
    if ((config.traceIds ?? [config.traceId]).some((t) => t !== undefined && traces.has(t))) ids.push(item.id);
  }
  return ids;
}

/** Sends a producer's fixture one span per request (logs after), then the whole payload again. */
async function deliver(producer: Producer): Promise<{ doc: Doc; runId: string }> {
  const files = FIXTURE_FILES[producer];
  const doc = read<Doc>(files.traces);
  for (const part of oneSpanPerRequest(doc)) expect((await send(postTraces, 'traces', part)).status).toBe(200);
  if (files.logs) expect((await send(postLogs, 'logs', read<LogDoc>(files.logs))).status).toBe(200);
  // Exporters resend after a timeout: nothing more.
  const again = await send(postTraces, 'traces', doc);
  expect(again.status).toBe(200);
  if (files.logs) expect((await send(postLogs, 'logs', read<LogDoc>(files.logs))).status).toBe(200);
  const ids = await runsOf(doc);
  expect(ids).toHaveLength(1);
  return { doc, runId: ids[0]! };
}

/** What every producer's run must show: the same agent, nothing lost. */
async function expectWeatherRun(runId: string): Promise<RunResult> {
  const stored = await getRunOrThrow(runId);
  const run = stored.run;
  expect(run.status).toBe('finished');
  expect(run.query).toBe(AGENT.question);
  expect(run.systemPrompt).toBe(AGENT.system);
  expect(run.finalAnswer).toBe(AGENT.answer);
  expect(run.modelId).toBe(AGENT.model);
  const turns = run.trajectory.filter((s): s is ModelTurn => s.kind === 'model_turn');
  const tools = run.trajectory.filter((s): s is ToolRecord => s.kind === 'tool_call');
  expect(turns).toHaveLength(2);
  expect(turns.map((t) => [t.inputTokens, t.outputTokens])).toEqual(AGENT.usage.map((u) => [u.input, u.output]));
  expect(turns[0]).toMatchObject({ stopReason: 'tool_use', toolCalls: [{ toolUseId: AGENT.callId, name: AGENT.toolName, arguments: { location: AGENT.location } }] });
  expect(turns[1]).toMatchObject({ stopReason: 'end_turn', text: AGENT.answer });
  for (const t of turns) {
    expect(t.provider).toMatch(/openai/);
    expect(t.finishReason).toBeTruthy();
  }
  expect(tools).toEqual([expect.objectContaining({ name: AGENT.toolName, toolUseId: AGENT.callId, arguments: { location: AGENT.location }, resultContent: { location: AGENT.location, temperature_c: AGENT.temperature, sky: AGENT.sky }, isError: false })]);
  // Replay: what each model call saw, in the harness's own shape.
  expect(run.modelInputs).toHaveLength(2);
  const second = await getModelInputAt(runId, 1);
  const shown = JSON.stringify(second);
  expect(shown).toContain(AGENT.question);
  expect(shown).toContain(AGENT.callId);
  expect(shown).toContain(String(AGENT.temperature));
  const page = await getRunSteps(runId, { fromIndex: 0, toIndex: 50 });
  expect(page.items.filter((i) => i.kind === 'model_turn' || i.kind === 'tool_call')).toHaveLength(3);
  // Cost from the price table, at the tokens the run recorded.
  const price = priceFor(`openai:${AGENT.model}`)!;
  const expected = turns.reduce((n, t) => n + usdAt(price, { inputTokens: t.inputTokens ?? 0, outputTokens: t.outputTokens ?? 0, cachedTokens: t.cachedTokens ?? 0 }), 0);
  expect(run.costEstimate.known).not.toBe(false);
  expect(run.costEstimate.usd).toBeCloseTo(expected, 12);
  expect(stored.meta.config).toMatchObject({ modelCalls: [{ requestModel: AGENT.model, responseModel: AGENT.model }, { requestModel: AGENT.model }] });
  return run;
}

describe('traces from the producers people use, each recorded by running the library', () => {
  it('Vercel AI SDK 6 (generateText with a tool, experimental_telemetry): one run with ai.* messages, tokens, cached tokens and the answer', async () => {
    const { runId } = await deliver('ai-sdk');
    const run = await expectWeatherRun(runId);
    const first = run.trajectory.find((s): s is ModelTurn => s.kind === 'model_turn')!;
    expect(first.cachedTokens).toBe(AGENT.usage[0].cached);
    expect(run.usage.cachedTokens).toBe(AGENT.usage[0].cached + AGENT.usage[1].cached);
    const stored = await getRunOrThrow(runId);
    expect(stored.meta.config).toMatchObject({ format: 'ai-sdk', sessionId: AGENT.sessionId, userId: AGENT.userId });
  });

  it('OpenInference with an AGENT root, a RETRIEVER and a TOOL span: system prompt, messages, provider, finish reasons, and the retriever kept as a step', async () => {
    const { runId } = await deliver('openinference-agent');
    const run = await expectWeatherRun(runId);
    const first = run.trajectory.find((s): s is ModelTurn => s.kind === 'model_turn')!;
    expect(first.cachedTokens).toBe(AGENT.usage[0].cached);
    const retriever = run.trajectory.find((s): s is SpanStep => s.kind === 'span');
    expect(retriever).toMatchObject({ spanKind: 'retriever', name: 'lookup_city_notes', attributes: { 'retrieval.documents.0.document.content': AGENT.retrieved } });
    const stored = await getRunOrThrow(runId);
    expect(stored.meta.config).toMatchObject({ format: 'openinference', sessionId: AGENT.sessionId, userId: AGENT.userId });
    expect(stored.meta.config).toMatchObject({ modelCalls: [{ invocationParameters: { temperature: 0.2 } }, {}] });
  });

  it('@opentelemetry/instrumentation-openai: the messages it sends as OTLP logs reach the run (query, system prompt, answer, tool result)', async () => {
    const { runId } = await deliver('otel-genai');
    await expectWeatherRun(runId);
    const stored = await getRunOrThrow(runId);
    expect(stored.meta.config).toMatchObject({ format: 'genai', sessionId: AGENT.sessionId });
  });

  it('OpenLLMetry (@traceloop/instrumentation-openai under workflow/tool spans): per-call messages and the system prompt', async () => {
    const { runId } = await deliver('openllmetry');
    await expectWeatherRun(runId);
    const stored = await getRunOrThrow(runId);
    expect(stored.meta.config).toMatchObject({ format: 'openllmetry', sessionId: AGENT.sessionId, userId: AGENT.userId });
  });

  it('OpenInference as is (each model call its own trace): one run, whose query is the question, not the request JSON', async () => {
    const { doc, runId } = await deliver('openinference');
    await expectWeatherRun(runId);
    expect(traceIdsOf(doc)).toHaveLength(2);
    // Both traces in one request (another tenant): still one run.
    const result = await importSpanRecords(await readOtlpJson([JSON.stringify(doc)]), { tenant: 'globex' });
    expect(result.runs).toHaveLength(1);
    expect(result.runs[0]).toMatchObject({ modelCalls: 2, toolCalls: 1 });
    // A different question through the same instrumentation stays a run of its own.
    const other = JSON.parse(JSON.stringify(doc).replaceAll(AGENT.question, 'And in Oslo?')) as Doc;
    const first = other.resourceSpans[0]!.scopeSpans[0]!.spans;
    for (const s of first) s.traceId = s.traceId.replace(/^./, (c) => (c === 'f' ? '0' : 'f'));
    const separate = await importSpanRecords(await readOtlpJson([JSON.stringify(other)]), { tenant: 'globex' });
    expect(separate.runs).toHaveLength(1);
    expect(separate.runs[0]!.id).not.toBe(result.runs[0]!.id);
  });

  it('filters runs by session.id and user.id, and lists a session’s runs in the order they started (another tenant sees none)', async () => {
    const session = await listSessionRuns('acme', AGENT.sessionId);
    // Every producer above ran the same session (the OTel GenAI one through gen_ai.conversation.id).
    expect(session.items.length).toBeGreaterThanOrEqual(4);
    const starts = session.items.map((r) => r.startedAt);
    expect(starts).toEqual([...starts].sort());
    expect(session.items.every((r) => r.sessionId === AGENT.sessionId)).toBe(true);
    const byUser = await listRuns({ filters: { tenant: 'acme', traceUserId: AGENT.userId }, limit: 50 });
    expect(byUser.items.length).toBeGreaterThanOrEqual(3);
    expect(byUser.items.every((r) => r.traceUserId === AGENT.userId)).toBe(true);
    const filtered = await listRuns({ filters: { tenant: 'acme', sessionId: 'no-such-session' }, limit: 50 });
    expect(filtered.items).toEqual([]);
    expect((await listSessionRuns('globex', AGENT.sessionId)).items).toEqual([]);
  });

  it('the logs receiver wants a tenant token, and reports records bound to no span as rejected', async () => {
    const body = JSON.stringify({ resourceLogs: [{ scopeLogs: [{ logRecords: [{ timeUnixNano: '1', eventName: 'gen_ai.user.message', body: { kvlistValue: { values: [{ key: 'content', value: { stringValue: 'hi' } }] } } }] }] }] });
    const anonymous = await postLogs(new Request('http://127.0.0.1/api/otlp/v1/logs', { method: 'POST', body, headers: { 'content-type': 'application/json' } }));
    expect(anonymous.status).toBe(401);
    const unbound = await postLogs(new Request('http://127.0.0.1/api/otlp/v1/logs', { method: 'POST', body, headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` } }));
    expect(unbound.status).toBe(200);
    expect(await unbound.json()).toEqual({ partialSuccess: { rejectedLogRecords: '1', errorMessage: expect.stringContaining('no traceId and spanId') } });
    const bad = await postLogs(new Request('http://127.0.0.1/api/otlp/v1/logs', { method: 'POST', body: '{"resourceLogs": [', headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` } }));
    expect(bad.status).toBe(400);
  });
});
