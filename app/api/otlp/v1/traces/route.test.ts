/**
 * The OTLP receiver, called as a route handler behind a bare node:http server so the official
 * exporter can post to it: per-tenant bearer tokens, both protocols, the round trip of a real run,
 * fixture traces shaped like other frameworks' exports, and refusals that store nothing.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '@/scripts/db-migrate.mjs';
import { createTestDatabaseUrl } from '@/lib/db/testing/test-databases';
import { getRunOrThrow, getRunSteps } from '@/lib/db/runs/runs-read';
import { countRuns, listRuns } from '@/lib/db/runs/runs-list';
import type { RunResult } from '@/lib/harness/types';
import { hashToken } from '@/lib/otel/ingest-tokens';
import { createRunTraceExporter } from '@/lib/otel/sdk-exporter';
import { sampleRuns } from '@/lib/otel/testing/sample-runs';
import { POST } from './route';

const TOKEN_A = 'tenant-a-token-0123456789abcdef';
const TOKEN_B = 'tenant-b-token-0123456789abcdef';
const FIXTURES = path.resolve(import.meta.dirname, '../../../../../lib/otel/testing/fixtures');
const fixture = (name: string) => readFileSync(path.join(FIXTURES, name));

let base = '';
let server: http.Server;
let drop: () => Promise<void>;
const env = { ...process.env };

beforeAll(async () => {
  const t = await createTestDatabaseUrl('sqlite');
  await migrate({ url: t.url });
  drop = t.drop;
  process.env.DATABASE_URL = t.url;
  process.env.STOCKROOM_OTLP_TOKENS = `acme:${hashToken(TOKEN_A)}, globex:${hashToken(TOKEN_B)}`;
  server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
    const response = await POST(new Request(`http://127.0.0.1${req.url}`, { method: 'POST', headers, body: Buffer.concat(chunks) }));
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(Buffer.from(await response.arrayBuffer()));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/otlp/v1/traces`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  process.env = env;
  await drop();
});

const post = (body: BodyInit, headers: Record<string, string> = {}) =>
  fetch(base, { method: 'POST', body, headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN_A}`, ...headers } });

const importedCount = async () => (await countRuns({ source: 'imported' })).count;

async function newRunsSince(before: string[]): Promise<string[]> {
  const { items } = await listRuns({ filters: { source: 'imported' }, limit: 200 });
  return items.map((r) => r.id).filter((id) => !before.includes(id));
}
const knownIds = async () => (await listRuns({ filters: { source: 'imported' }, limit: 200 })).items.map((r) => r.id);

describe('POST /api/otlp/v1/traces', () => {
  it('refuses a missing or wrong bearer token with 401 and a Bearer challenge, storing nothing', async () => {
    const before = await importedCount();
    for (const authorization of ['', 'Bearer not-a-token', 'Basic abc']) {
      const res = await post(fixture('genai-python-agent.json'), { authorization });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toContain('Bearer');
    }
    expect(await importedCount()).toBe(before);
  });

  it('imports a GenAI-convention trace as a run of the token’s tenant, with steps rebuilt from chat and tool spans', async () => {
    const before = await knownIds();
    const res = await post(fixture('genai-python-agent.json'), { authorization: `Bearer ${TOKEN_B}` });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({});
    const [id] = await newRunsSince(before);
    const stored = await getRunOrThrow(id!);
    expect(stored.meta.source).toBe('imported');
    expect(stored.meta.tenant).toBe('globex');
    expect(stored.meta.config).toMatchObject({ tenant: 'globex', format: 'genai', serviceName: 'weather-agent' });
    const run = stored.run;
    expect(run.runId).toBe('conv_5j66UpCpwteGg4YSxUnt7lPY');
    expect(run.query).toBe('Weather in Paris and Oslo?');
    expect(run.modelId).toBe('gpt-4o-mini');
    expect(run.usage).toEqual({ modelCalls: 2, inputTokens: 261, outputTokens: 51, totalTokens: 312, perCall: [{ inputTokens: 97, outputTokens: 21 }, { inputTokens: 164, outputTokens: 30 }] });
    expect(run.trajectory.map((s) => s.kind)).toEqual(['model_turn', 'tool_call', 'tool_call', 'model_turn']);
    const [first, paris, oslo] = run.trajectory;
    expect(first).toMatchObject({ step: 1, stopReason: 'tool_use', toolCalls: [{ toolUseId: 'call_VSPygqK', name: 'get_weather', arguments: { location: 'Paris' } }, { toolUseId: 'call_Xq81lm', name: 'get_weather' }] });
    expect(paris).toMatchObject({ step: 1, name: 'get_weather', toolUseId: 'call_VSPygqK', arguments: { location: 'Paris' }, resultContent: { temperature_c: 14, sky: 'rain' }, isError: false });
    expect(oslo).toMatchObject({ step: 1, toolUseId: 'call_Xq81lm', arguments: { location: 'Oslo' }, isError: true, errorCode: 'TimeoutError' });
    expect(run.terminationReason).toBe('COMPLETED');
    expect(run.finalAnswer).toBe("Paris: 14 °C and rain. Oslo's forecast timed out.");
    expect(run.transitions.map((t) => `${t.from}>${t.to}`)).toEqual(['PLAN>CALL_MODEL', 'CALL_MODEL>EXECUTE_TOOLS', 'EXECUTE_TOOLS>OBSERVE', 'OBSERVE>CALL_MODEL', 'CALL_MODEL>DONE']);
    // Replay pages through the imported run like any other.
    const page = await getRunSteps(id!, { fromIndex: 0, toIndex: 10 });
    expect(page.items).toHaveLength(4);
    expect(page.transitions).toHaveLength(5);
  });

  it('imports an OpenInference trace and reports a trace with no agent spans as rejected (partial success)', async () => {
    const before = await knownIds();
    const res = await post(fixture('openinference-llamaindex.json'));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ partialSuccess: { rejectedSpans: '1', errorMessage: expect.stringContaining('1 trace(s) had no agent span') } });
    const ids = await newRunsSince(before);
    expect(ids).toHaveLength(1);
    const stored = await getRunOrThrow(ids[0]!);
    expect(stored.meta.config).toMatchObject({ tenant: 'acme', format: 'openinference', serviceName: 'docs-rag-agent' });
    const run = stored.run;
    expect(run.query).toBe('How long do refunds take?');
    expect(run.finalAnswer).toBe('Refunds are paid within 14 days.');
    expect(run.modelId).toBe('gpt-4o');
    expect(run.usage.perCall).toEqual([{ inputTokens: 210, outputTokens: 18 }, { inputTokens: 290, outputTokens: 12 }]);
    expect(run.trajectory.map((s) => s.kind)).toEqual(['model_turn', 'tool_call', 'model_turn']);
    expect(run.trajectory[1]).toMatchObject({ name: 'search_docs', toolUseId: 'call_q1', arguments: { query: 'refund policy' }, resultContent: 'Refunds are issued to the original payment method within 14 days.' });
  });

  it('answers 200 to each request of a trace split over three, the last holding only the root, and stores one run', async () => {
    const doc = JSON.parse(fixture('genai-python-agent.json').toString('utf8')) as { resourceSpans: Array<{ resource: unknown; scopeSpans: Array<{ scope?: unknown; spans: Array<{ parentSpanId?: string; traceId: string }> }> }> };
    const traceId = 'feedfacefeedfacefeedfacefeedface';
    const spans = doc.resourceSpans[0]!.scopeSpans[0]!.spans.map((s) => ({ ...s, traceId }));
    const root = spans.filter((s) => !s.parentSpanId);
    const children = spans.filter((s) => s.parentSpanId);
    const body = (list: unknown[]) => JSON.stringify({ resourceSpans: [{ resource: doc.resourceSpans[0]!.resource, scopeSpans: [{ spans: list }] }] });
    const before = await knownIds();
    for (const part of [children.slice(0, 1), children.slice(1), root, root]) {
      const res = await post(body(part));
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({});
    }
    const ids = await newRunsSince(before);
    expect(ids).toHaveLength(1);
    const stored = await getRunOrThrow(ids[0]!);
    expect(stored.run).toMatchObject({ status: 'finished', usage: { modelCalls: 2 }, query: 'Weather in Paris and Oslo?' });
  });

  it('accepts a gzip-compressed body', async () => {
    const before = await importedCount();
    const res = await post(gzipSync(fixture('genai-python-agent.json')), { 'content-encoding': 'gzip' });
    expect(res.status).toBe(200);
    expect(await importedCount()).toBe(before + 1);
  });

  it.each([
    ['invalid JSON', '{"resourceSpans": [', 400, /not valid JSON/],
    ['a bad traceId', JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans: [{ traceId: 'xyz', spanId: 'eee19b7ec3c1b174', name: 'chat', startTimeUnixNano: '1' }] }] }] }), 400, /resourceSpans\[0\]\.scopeSpans\[0\]\.spans\[0\]\.traceId: must be 32 hex characters/],
    ['no spans at all', JSON.stringify({ something: 'else' }), 400, /no spans at resourceSpans/],
    ['only non-agent traces', JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans: [{ traceId: '1bf7651916cd43dd8448eb211c80319d', spanId: 'c7ad6b7169203331', name: 'GET /', startTimeUnixNano: '1' }] }] }] }), 400, /none of the 1 trace\(s\) has a model or tool span/],
  ])('refuses %s with a clear error and stores nothing', async (_what, body, status, message) => {
    const before = await importedCount();
    const res = await post(body);
    expect(res.status).toBe(status);
    expect(((await res.json()) as { error: string }).error).toMatch(message);
    expect(await importedCount()).toBe(before);
  });

  it('refuses an unsupported content type with 415 and an oversized body with 413', async () => {
    const before = await importedCount();
    const wrongType = await post('x', { 'content-type': 'text/plain' });
    expect(wrongType.status).toBe(415);
    expect(((await wrongType.json()) as { error: string }).error).toMatch(/content-type 'text\/plain' is not supported/);
    process.env.OTLP_MAX_BODY_BYTES = '1024';
    try {
      const big = await post(fixture('genai-python-agent.json'));
      expect(big.status).toBe(413);
      expect(((await big.json()) as { error: string }).error).toMatch(/at most 1024 are accepted|larger than 1024 bytes/);
      const zipped = await post(gzipSync(fixture('genai-python-agent.json')), { 'content-encoding': 'gzip' });
      expect(zipped.status).toBe(413);
    } finally {
      delete process.env.OTLP_MAX_BODY_BYTES;
    }
    const garbage = await post(Buffer.from([0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f]), { 'content-type': 'application/x-protobuf' });
    expect(garbage.status).toBe(400);
    expect(((await garbage.json()) as { error: string }).error).toMatch(/not an OTLP protobuf ExportTraceServiceRequest/);
    expect(await importedCount()).toBe(before);
  });
});

describe.each(['http/json', 'http/protobuf'] as const)('round trip through the official exporter over %s', (protocol) => {
  let runs: Awaited<ReturnType<typeof sampleRuns>>;
  beforeAll(async () => {
    runs = await sampleRuns();
  });

  it('brings a run back with the same model calls, tool calls, tokens and termination', async () => {
    for (const original of [runs.mixed, runs.repeated, runs.blocked]) {
      const before = await knownIds();
      const warnings: string[] = [];
      const exporter = createRunTraceExporter(
        { tracesUrl: base, protocol, serviceName: 'round-trip', captureContent: true, headers: { authorization: `Bearer ${TOKEN_A}` }, timeoutMillis: 5000 },
        (m) => warnings.push(m),
      );
      exporter.exportRun(original, { datasetName: 'stockroom-own' });
      await exporter.flush();
      await exporter.shutdown();
      expect(warnings).toEqual([]);
      const ids = await newRunsSince(before);
      expect(ids).toHaveLength(1);
      const stored = await getRunOrThrow(ids[0]!);
      expect(stored.meta.datasetName).toBe('stockroom-own');
      const back: RunResult = stored.run;
      const essentials = (r: RunResult) => ({
        runId: r.runId,
        query: r.query,
        finalAnswer: r.finalAnswer,
        terminationReason: r.terminationReason,
        usage: r.usage,
        steps: r.steps,
        transitions: r.transitions,
        // What was measured comes back as the spans carried it (checked below), not to the digit.
        modelCalls: r.trajectory.filter((s) => s.kind === 'model_turn').map(({ latencyMs: _l, time: _t, ...rest }) => rest),
        toolCalls: r.trajectory.filter((s) => s.kind === 'tool_call').map((s) => [s.step, s.name, s.toolUseId, s.arguments, s.resultContent, s.isError, s.errorCode, s.blockedBy, s.validationError, s.executed, s.sanitized, s.quarantinedLines, s.policy]),
        events: r.trajectory.filter((s) => s.kind === 'guard' || s.kind === 'compaction').map((s) => ({ ...s, time: undefined })),
      });
      expect(essentials(back)).toEqual(essentials(original));
      // Each call's recorded start and end come back as offsets from the run's start (issue 22 §3).
      const offsets = (r: RunResult) => r.trajectory.flatMap((s) => (s.kind === 'model_turn' || s.kind === 'tool_call' ? [s.time] : []));
      const sent = offsets(original);
      offsets(back).forEach((t, i) => {
        expect(t!.startMs).toBeCloseTo(sent[i]!.startMs, 0);
        expect(t!.endMs).toBeCloseTo(sent[i]!.endMs, 0);
      });
    }
  });
});
