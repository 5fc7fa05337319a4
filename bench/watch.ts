/**
 * `npm run bench -- --only watch` (issue 37): do online evaluators keep up with ingest? The OTLP bench's
 * traces (bench/otlp.ts: 10 spans each, 1,000-span requests, through the real route handler) are sent
 * twice, each time into a fresh SQLite database: once with no evaluator (the watch job still keeps the
 * hourly rollup) and once with three (loop findings, a guardrail detector, the fake judge sampling 10%).
 * Reported: ingest time without evaluators, the time until every run was scored and rolled up with
 * them, their ratio (target ≤ 2), and the share of runs the judge graded against its rate (target
 * ±1 pp). Then the dashboard's data per chart on PostgreSQL over a rollup the size a year of busy
 * hours makes (the rollup does not grow with runs, only with hours × models × terminations), seeded
 * directly: the chart's p95 in-process, not over HTTP. BENCH_WATCH_TRACES scales the first part down.
 * Measures, never asserts.
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { migrate } from '../scripts/db-migrate.mjs';
import { createTestDatabaseUrl } from '../lib/db/testing/test-databases';
import { hashToken } from '../lib/otel/ingest-tokens';
import { percentile } from './stats';

interface Figure {
  name: string;
  value: number;
  unit: string;
  target?: string;
  detail?: string;
}

const TRACES = Number(process.env.BENCH_WATCH_TRACES ?? 10_000);
const SPANS_PER_REQUEST = 1_000;
const TOKEN = 'bench-watch-token-0123456789abcdef';
const JUDGE_RATE = 0.1;

const hex = (n: number, width: number) => n.toString(16).padStart(width, '0');
const s = (key: string, value: string) => ({ key, value: { stringValue: value } });
const i = (key: string, value: number) => ({ key, value: { intValue: value } });

function traceSpans(t: number, t0: bigint): object[] {
  const traceId = hex(t + 1, 32);
  const root = hex(t * 16 + 1, 16);
  const start = t0 + BigInt(t) * 100_000_000n;
  const at = (k: number) => String(start + BigInt(k) * 10_000_000n);
  const spans: object[] = [];
  for (let k = 0; k < 4; k++) {
    spans.push({
      traceId, spanId: hex(t * 16 + 3 + 2 * k, 16), parentSpanId: root, name: 'chat bench-model', kind: 3, startTimeUnixNano: at(2 + 3 * k), endTimeUnixNano: at(3 + 3 * k),
      attributes: [s('gen_ai.operation.name', 'chat'), s('gen_ai.provider.name', 'openai'), s('gen_ai.request.model', t % 3 === 0 ? 'gpt-4o-mini' : 'gpt-4o'), i('gen_ai.usage.input_tokens', 900 + k * 100), i('gen_ai.usage.output_tokens', 20), s('gen_ai.response.finish_reasons', k < 3 ? 'tool_calls' : 'stop')],
    });
    spans.push({
      traceId, spanId: hex(t * 16 + 4 + 2 * k, 16), parentSpanId: root, name: 'execute_tool lookup', kind: 1, startTimeUnixNano: at(3 + 3 * k), endTimeUnixNano: at(4 + 3 * k),
      attributes: [s('gen_ai.operation.name', 'execute_tool'), s('gen_ai.tool.name', 'lookup'), s('gen_ai.tool.call.id', `call_${t}_${k}`), s('gen_ai.tool.call.result', `{"order":${t},"step":${k},"status":"shipped"}`)],
    });
  }
  spans.push({ traceId, spanId: hex(t * 16 + 2, 16), parentSpanId: root, name: 'lookup notes', kind: 1, startTimeUnixNano: at(0), endTimeUnixNano: at(1), attributes: [s('openinference.span.kind', 'RETRIEVER'), s('input.value', `notes for order ${t}`)] });
  spans.push({ traceId, spanId: root, name: 'invoke_agent bench', kind: 1, startTimeUnixNano: at(0), endTimeUnixNano: at(15), attributes: [s('gen_ai.operation.name', 'invoke_agent'), s('gen_ai.conversation.id', `conv-${t}`)] });
  return spans;
}

function* requests(t0: bigint): Generator<string> {
  let batch: object[] = [];
  const body = (spans: object[]) => JSON.stringify({ resourceSpans: [{ resource: { attributes: [s('service.name', 'bench-agent')] }, scopeSpans: [{ spans }] }] });
  for (let t = 0; t < TRACES; t++) {
    for (const span of traceSpans(t, t0)) {
      batch.push(span);
      if (batch.length === SPANS_PER_REQUEST) {
        yield body(batch);
        batch = [];
      }
    }
  }
  if (batch.length > 0) yield body(batch);
}

/** One pass in a fresh SQLite database: ingest time, and the time until the outbox is empty. */
async function pass(withEvaluators: boolean): Promise<{ ingestMs: number; doneMs: number; runs: number; judged: number; scores: number }> {
  const { url, drop } = await createTestDatabaseUrl('sqlite');
  await migrate({ url });
  process.env.DATABASE_URL = url;
  process.env.STOCKROOM_OTLP_TOKENS = `bench:${hashToken(TOKEN)}`;
  const { closeDb, getDb } = await import('../lib/db/core/client');
  const { closeJobQueue } = await import('../lib/jobs/queue');
  const { saveEvaluator } = await import('../lib/db/review/evaluators');
  const { pendingWatchCount } = await import('../lib/db/review/run-scores');
  const { POST } = await import('../app/api/otlp/v1/traces/route');
  try {
    if (withEvaluators) {
      await saveEvaluator('bench', { name: 'loops', kind: 'loop_findings', enabled: true, config: {}, filter: {} }, null);
      await saveEvaluator('bench', { name: 'pii', kind: 'guardrail', enabled: true, config: { detectors: ['no_pii'] }, filter: {} }, null);
      await saveEvaluator('bench', { name: 'faithful', kind: 'judge', enabled: true, config: { judge: 'fake', sampleRate: JUDGE_RATE }, filter: {} }, null);
    }
    const t0 = performance.now();
    for (const body of requests(BigInt(Date.now() - 3_600_000) * 1_000_000n)) {
      const res = await POST(new Request('http://127.0.0.1/api/otlp/v1/traces', { method: 'POST', body, headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` } }));
      if (res.status !== 200) throw new Error(`the receiver answered ${res.status}: ${await res.text()}`);
      await new Promise((r) => setImmediate(r));
    }
    const ingestMs = performance.now() - t0;
    // The in-process queue's watch jobs (poked by each request) drain meanwhile and after.
    while ((await pendingWatchCount()) > 0) await new Promise((r) => setTimeout(r, 100));
    const doneMs = performance.now() - t0;
    const p = getDb().prisma;
    return { ingestMs, doneMs, runs: await p.run.count(), judged: await p.runScore.count({ where: { evaluatorName: 'faithful' } }), scores: await p.runScore.count() };
  } finally {
    await closeJobQueue();
    await closeDb();
    await drop();
  }
}

/** The trends page's data for one chart on PostgreSQL over a seeded year-sized rollup: p95 of `repeat`×10 reads. */
async function chartOnPostgres(repeat: number): Promise<Figure[]> {
  const { url, drop } = await createTestDatabaseUrl('postgres');
  await migrate({ url });
  const { openDatabase } = await import('../lib/db/core/client');
  const { rollupRows, topRollupValues } = await import('../lib/db/review/rollup');
  const { MAX_SERIES, prepareTrends, windowOf } = await import('../lib/charts/trends');
  const db = openDatabase(url);
  try {
    // 30 days × 24 h × 20 models × 4 terminations (plus the `all` rows): what ~1,000,000 runs in those hours roll up to (347 per hour and termination).
    const now = new Date();
    const hours = 30 * 24;
    const models = Array.from({ length: 20 }, (_, m) => `openai:model-${m}`);
    const terms = ['COMPLETED', 'MODEL_ERROR', 'MAX_STEPS', 'GUARDRAIL'];
    const start = Math.floor(now.getTime() / 3_600_000) * 3_600_000 - hours * 3_600_000;
    let seededRuns = 0;
    for (let h = 0; h < hours; h++) {
      const hour = new Date(start + h * 3_600_000);
      const rows = [];
      const latency = [];
      for (const [dim, values] of [['all', ['']], ['model', models]] as const) {
        for (const value of values) {
          for (const termination of terms) {
            const runs = dim === 'all' ? 347 : 17;
            if (dim === 'all') seededRuns += runs;
            rows.push({ tenant: 'bench', hour, dim, value, termination, runs, inputTokens: BigInt(runs * 4000), outputTokens: BigInt(runs * 80), unreportedCalls: 0, costUsd: runs * 0.001, costUnknownRuns: 0, guardrailFindings: 0 });
          }
          for (let b = 38; b < 50; b++) latency.push({ tenant: 'bench', hour, dim, value, bucket: b, count: 10 });
        }
      }
      await db.prisma.runHour.createMany({ data: rows });
      await db.prisma.latencyHour.createMany({ data: latency });
    }
    const times: Record<string, number[]> = { all: [], model: [] };
    for (let r = 0; r < repeat * 10; r++) {
      for (const dim of ['all', 'model'] as const) {
        const t = performance.now();
        const w = windowOf('30d', now);
        const window = { tenant: 'bench', dim, from: w.from, to: w.to };
        // As the trends page reads: all runs, or the busiest MAX_SERIES values of the dimension.
        const values = dim === 'all' ? undefined : await topRollupValues(window, MAX_SERIES, db);
        prepareTrends(await rollupRows(window, db, values, w.step), w);
        times[dim]!.push(performance.now() - t);
      }
    }
    return [
      { name: 'trends data for one chart, 30 days, all runs (PostgreSQL), p95', value: Math.round(percentile(times.all!, 95) * 10) / 10, unit: 'ms', target: '≤ 300 ms over HTTP', detail: `in-process (rollup read + prepare), not over HTTP; rollup seeded as ${seededRuns.toLocaleString('en')} runs in 720 hours` },
      { name: 'trends data for one chart, 30 days, by model (20 models), p95', value: Math.round(percentile(times.model!, 95) * 10) / 10, unit: 'ms', target: '≤ 300 ms over HTTP', detail: 'in-process; the rollup does not grow with the number of runs, only with hours × values × terminations' },
    ];
  } finally {
    await db.close();
    await drop();
  }
}

export async function benchWatch(repeat: number): Promise<Figure[]> {
  const saved = { DATABASE_URL: process.env.DATABASE_URL, STOCKROOM_OTLP_TOKENS: process.env.STOCKROOM_OTLP_TOKENS };
  try {
    const without = await pass(false);
    const withEv = await pass(true);
    const load = os.loadavg()[0]!.toFixed(1);
    const s1 = (ms: number) => Math.round(ms / 100) / 10;
    const share = withEv.judged / withEv.runs;
    return [
      { name: `ingest ${TRACES * 10} spans / ${TRACES} traces, no evaluators`, value: s1(without.ingestMs), unit: 's', detail: `rolled up ${s1(without.doneMs)} s after the first request; ${without.runs} runs (SQLite, load ${load})` },
      { name: 'the same with three evaluators, until every run is scored', value: s1(withEv.doneMs), unit: 's', detail: `ingest itself ${s1(withEv.ingestMs)} s; ${withEv.scores} scores` },
      { name: 'scored with three evaluators / ingest without', value: Math.round((withEv.doneMs / without.ingestMs) * 100) / 100, unit: '×', target: '≤ 2' },
      { name: `judge sampled share (rate ${JUDGE_RATE * 100}%)`, value: Math.round(share * 10_000) / 100, unit: '%', target: `${JUDGE_RATE * 100} ± 1`, detail: `${withEv.judged} of ${withEv.runs} runs` },
      ...(await chartOnPostgres(repeat)),
    ];
  } finally {
    process.env.DATABASE_URL = saved.DATABASE_URL;
    process.env.STOCKROOM_OTLP_TOKENS = saved.STOCKROOM_OTLP_TOKENS;
  }
}
