/**
 * `npm run bench -- --only otlp`: 100,000 spans in 10,000 agent traces streamed to the OTLP receiver
 * (the real route handler, bearer token and all) in 1,000-span requests, the way a BatchSpanProcessor
 * sends them: children before their root, a trace's spans cut across requests where a batch ends.
 * Prints the ingest time, spans per second, peak heap and RSS (sampled every 50 ms) next to the heap
 * before and after (flat memory: the receiver keeps no span once its batch is stored), and the runs
 * list's latency (the data-layer calls the runs page makes) while ingestion runs. Measures, never asserts.
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { migrate } from '../scripts/db-migrate.mjs';
import { createTestDatabaseUrl } from '../lib/db/testing/test-databases';
import { hashToken } from '../lib/otel/ingest-tokens';
import { percentile } from './stats';
import { fullCollection } from '../lib/mcp/server/idle-compaction';

interface Figure {
  name: string;
  value: number;
  unit: string;
  target?: string;
  detail?: string;
}

const TRACES = Number(process.env.BENCH_OTLP_TRACES ?? 10_000);
const SPANS_PER_TRACE = 10;
const SPANS_PER_REQUEST = 1_000;
const TOKEN = 'bench-otlp-token-0123456789abcdef';

/** A real collection before each retained-heap sample (the bench runs without its gc exposed). */
function collector(): () => void {
  const gc = fullCollection();
  if (!gc) throw new Error('bench otlp: this runtime offers no full garbage collection');
  return gc;
}

const hex = (n: number, width: number) => n.toString(16).padStart(width, '0');
const s = (key: string, value: string) => ({ key, value: { stringValue: value } });
const i = (key: string, value: number) => ({ key, value: { intValue: value } });

/** One agent trace: 4 model calls, 4 tool calls, a retriever step, then the root (it ends last). */
function traceSpans(t: number): object[] {
  const traceId = hex(t + 1, 32);
  const root = hex(t * 16 + 1, 16);
  const t0 = 1796086453000000000n + BigInt(t) * 1_000_000_000n;
  const at = (k: number) => String(t0 + BigInt(k) * 10_000_000n);
  const spans: object[] = [
    { traceId, spanId: hex(t * 16 + 2, 16), parentSpanId: root, name: 'lookup notes', kind: 1, startTimeUnixNano: at(0), endTimeUnixNano: at(1), attributes: [s('openinference.span.kind', 'RETRIEVER'), s('input.value', `notes for order ${t}`)] },
  ];
  for (let k = 0; k < 4; k++) {
    spans.push({
      traceId, spanId: hex(t * 16 + 3 + 2 * k, 16), parentSpanId: root, name: 'chat bench-model', kind: 3, startTimeUnixNano: at(2 + 3 * k), endTimeUnixNano: at(3 + 3 * k),
      attributes: [s('gen_ai.operation.name', 'chat'), s('gen_ai.provider.name', 'openai'), s('gen_ai.request.model', 'gpt-4o-mini'), i('gen_ai.usage.input_tokens', 900 + k * 100), i('gen_ai.usage.output_tokens', 20), s('gen_ai.response.finish_reasons', k < 3 ? 'tool_calls' : 'stop')],
    });
    spans.push({
      traceId, spanId: hex(t * 16 + 4 + 2 * k, 16), parentSpanId: root, name: 'execute_tool lookup', kind: 1, startTimeUnixNano: at(3 + 3 * k), endTimeUnixNano: at(4 + 3 * k),
      attributes: [s('gen_ai.operation.name', 'execute_tool'), s('gen_ai.tool.name', 'lookup'), s('gen_ai.tool.call.id', `call_${t}_${k}`), s('gen_ai.tool.call.result', `{"order":${t},"step":${k},"status":"shipped"}`)],
    });
  }
  spans.push({
    traceId, spanId: root, name: 'invoke_agent bench', kind: 1, startTimeUnixNano: at(0), endTimeUnixNano: at(15),
    attributes: [s('gen_ai.operation.name', 'invoke_agent'), s('gen_ai.conversation.id', `conv-${t}`), s('session.id', `session-${t % 500}`)],
  });
  return spans;
}

function* requests(): Generator<string> {
  let batch: object[] = [];
  const body = (spans: object[]) => JSON.stringify({ resourceSpans: [{ resource: { attributes: [s('service.name', 'bench-agent')] }, scopeSpans: [{ spans }] }] });
  for (let t = 0; t < TRACES; t++) {
    for (const span of traceSpans(t)) {
      batch.push(span);
      if (batch.length === SPANS_PER_REQUEST) {
        yield body(batch);
        batch = [];
      }
    }
  }
  if (batch.length > 0) yield body(batch);
}

/** The databases ingested into, in order: BENCH_OTLP_DATABASES (comma-separated), both by default. */
function databases(): Array<'sqlite' | 'postgres'> {
  const list = (process.env.BENCH_OTLP_DATABASES ?? 'sqlite,postgres').split(',').map((d) => d.trim()).filter(Boolean);
  for (const d of list) if (d !== 'sqlite' && d !== 'postgres') throw new Error(`BENCH_OTLP_DATABASES: '${d}' is not sqlite or postgres`);
  return list as Array<'sqlite' | 'postgres'>;
}

export async function benchOtlp(): Promise<Figure[]> {
  const out: Figure[] = [];
  for (const provider of databases()) out.push(...(await benchOtlpOn(provider)));
  return out;
}

async function benchOtlpOn(provider: 'sqlite' | 'postgres'): Promise<Figure[]> {
  const { url, drop } = await createTestDatabaseUrl(provider);
  await migrate({ url });
  const env = { DATABASE_URL: process.env.DATABASE_URL, STOCKROOM_OTLP_TOKENS: process.env.STOCKROOM_OTLP_TOKENS };
  process.env.DATABASE_URL = url;
  process.env.STOCKROOM_OTLP_TOKENS = `bench:${hashToken(TOKEN)}`;
  const { POST } = await import('../app/api/otlp/v1/traces/route');
  const { countRuns, listRuns } = await import('../lib/db/runs/runs-list');
  const { closeDb } = await import('../lib/db/core/client');
  try {
    const gc = collector();
    gc();
    const heapBefore = process.memoryUsage().heapUsed;
    const retained: number[] = [];
    let peakHeap = heapBefore;
    let peakRss = process.memoryUsage().rss;
    const sampler = setInterval(() => {
      const m = process.memoryUsage();
      peakHeap = Math.max(peakHeap, m.heapUsed);
      peakRss = Math.max(peakRss, m.rss);
    }, 50);
    // The runs page's queries (first page and count) while traces stream in.
    const listLatencies: number[] = [];
    let ingesting = true;
    const lister = (async () => {
      while (ingesting) {
        const t = performance.now();
        await listRuns({ filters: { tenant: 'bench' }, limit: 50 });
        await countRuns({ tenant: 'bench' });
        listLatencies.push(performance.now() - t);
        await new Promise((r) => setTimeout(r, 250));
      }
    })();
    let spans = 0;
    let refused = 0;
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    for (const body of requests()) {
      const headers = { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), authorization: `Bearer ${TOKEN}` };
      const res = await POST(new Request('http://127.0.0.1/api/otlp/v1/traces', { method: 'POST', body, headers }));
      if (res.status !== 200) throw new Error(`the receiver answered ${res.status}: ${await res.text()}`);
      const answer = (await res.json()) as { partialSuccess?: { rejectedSpans?: string } };
      refused += Number(answer.partialSuccess?.rejectedSpans ?? 0);
      spans += SPANS_PER_REQUEST;
      // Each request is its own task, as HTTP requests are: the runs list gets its turn between them.
      await new Promise((r) => setImmediate(r));
      if (spans % (20 * SPANS_PER_REQUEST) === 0) {
        gc();
        retained.push(process.memoryUsage().heapUsed);
      }
    }
    const ingestMs = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    ingesting = false;
    await lister;
    clearInterval(sampler);
    gc();
    const heapAfter = process.memoryUsage().heapUsed;
    const runs = (await countRuns({ tenant: 'bench' })).count;
    const running = (await countRuns({ tenant: 'bench', status: 'running' })).count;
    const mb = (b: number) => Math.round(b / 1e5) / 10;
    const load = `load average ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores at the end`;
    const figures: Figure[] = [
      { name: `ingest ${TRACES * SPANS_PER_TRACE} spans / ${TRACES} traces in ${SPANS_PER_REQUEST}-span requests`, value: Math.round(ingestMs / 100) / 10, unit: 's', target: '≤ 60 s', detail: `${runs} runs, ${running} still running, ${refused} spans refused` },
      { name: 'CPU spent by this process while ingesting (user + system)', value: Math.round((cpu.user + cpu.system) / 1e5) / 10, unit: 's', detail: `wall time depends on the machine's load (${load})` },
      { name: 'ingest rate', value: Math.round(spans / (ingestMs / 1000)), unit: 'spans/s', target: '≥ 10000 spans/s', detail: load },
      { name: 'heap kept after GC, every 20 requests', value: mb(Math.max(...retained, heapAfter)), unit: 'MB', target: 'flat', detail: `${retained.map(mb).join(' → ')} MB; before ${mb(heapBefore)}, after ${mb(heapAfter)}` },
      { name: 'peak heap while ingesting (garbage included)', value: mb(peakHeap), unit: 'MB' },
      { name: 'peak RSS while ingesting', value: mb(peakRss), unit: 'MB' },
      { name: 'runs list + count while ingesting, p95', value: Math.round(percentile(listLatencies, 95) * 10) / 10, unit: 'ms', detail: `${listLatencies.length} samples` },
    ];
    return figures.map((f) => ({ ...f, name: `${f.name} (${provider === 'sqlite' ? 'SQLite' : 'PostgreSQL'})` }));
  } finally {
    await closeDb().catch(() => undefined);
    process.env.DATABASE_URL = env.DATABASE_URL;
    process.env.STOCKROOM_OTLP_TOKENS = env.STOCKROOM_OTLP_TOKENS;
    await drop();
  }
}
