/**
 * `npm run bench -- --only watch` (issue 37): do online evaluators keep up with ingest? The OTLP bench's
 * traces (bench/otlp.ts: 10 spans each, 1,000-span requests, through the real route handler) are sent
 * twice, each time into a fresh SQLite database: once with no evaluator (the watch job still keeps the
 * hourly rollup) and once with three (loop findings, a guardrail detector, the fake judge sampling 10%).
 * Reported: ingest time without evaluators, the time until every run was scored and rolled up with
 * them, their ratio (target ≤ 2), and the share of runs the judge graded against its rate (target
 * ±1 pp). Then /trends on PostgreSQL over the rollup a month of ~1,000,000 runs makes (seeded
 * directly through the watch job's writer: the page reads the rollup, never the runs), over HTTP from
 * the production server, per grouping and window. BENCH_WATCH_TRACES scales the first part down;
 * BENCH_WATCH_PARTS (`ingest`, `trends`, comma-separated) picks the parts. Measures, never asserts.
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { migrate } from '../scripts/db-migrate.mjs';
import { createTestDatabaseUrl } from '../lib/db/testing/test-databases';
import { hashToken } from '../lib/otel/ingest-tokens';
import { median, percentile, round, type Figure } from './stats';
import { sampleGets, signIn, startProdServer, type ProdServer } from './prod-server';


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

/** Rollup shape of the seeded month: values per dimension (each hour: every value under every termination). */
const SEED = { models: 20, agents: 10, tags: 15, terminations: ['COMPLETED', 'MODEL_ERROR', 'MAX_STEPS', 'GUARDRAIL'], evaluators: ['loops', 'pii', 'faithful'], runsPerHour: 1_389 } as const;

/**
 * The hourly rollup 30 days of ~1,000,000 runs make (SEED.runsPerHour × 720 hours), seeded directly in
 * the rows the watch job writes: every run under `all`, its model, its source, one agent and one or two
 * tags, four terminations, twelve latency buckets, three evaluators' scores. /trends reads only these
 * (it never reads the runs), so what it costs depends on hours × values, not on the runs behind them.
 */
async function seedMonth(db: import('../lib/db/core/client').Database, now: Date): Promise<number> {
  const { applyRollup } = await import('../lib/db/review/rollup');
  const hours = 30 * 24;
  const start = Math.floor(now.getTime() / 3_600_000) * 3_600_000 - (hours - 1) * 3_600_000;
  const values: Array<[string, string[], number]> = [
    ['all', [''], 1],
    ['model', Array.from({ length: SEED.models }, (_, m) => `openai:model-${m}`), SEED.models],
    ['source', ['harness', 'imported'], 2],
    ['agent', Array.from({ length: SEED.agents }, (_, a) => `agent-${a}`), SEED.agents],
    // One or two tags a run: the tags of an hour count 1.5× its runs.
    ['tag', Array.from({ length: SEED.tags }, (_, t) => `tag-${t}`), SEED.tags / 1.5],
  ];
  let runs = 0;
  for (let h = 0; h < hours; h++) {
    const hour = new Date(start + h * 3_600_000);
    const deltas: Parameters<typeof applyRollup>[1] = { hours: [], latency: [], scores: [] };
    runs += SEED.runsPerHour;
    for (const [dim, list, share] of values) {
      const perValue = Math.round(SEED.runsPerHour / share);
      for (const value of list) {
        const perTerm = Math.round(perValue / SEED.terminations.length);
        for (const termination of SEED.terminations) {
          deltas.hours.push({ tenant: 'bench', hour, dim, value, termination, runs: perTerm, inputTokens: perTerm * 4000, outputTokens: perTerm * 80, unreportedCalls: 0, costUsd: perTerm * 0.001, costUnknownRuns: 0, guardrailFindings: perTerm % 7 });
        }
        for (let b = 38; b < 50; b++) deltas.latency.push({ tenant: 'bench', hour, dim, value, bucket: b, count: Math.round(perValue / 12) });
        for (const evaluator of SEED.evaluators) deltas.scores.push({ tenant: 'bench', hour, dim, value, evaluator, sum: perValue * 0.8, count: perValue });
      }
    }
    await applyRollup(db, deltas);
  }
  return runs;
}

/**
 * The trends page over a month of ~1,000,000 runs on PostgreSQL: the production server (next start)
 * answering GET /trends (every chart of the page in one server-rendered answer) for each grouping and
 * window, as a signed-in member; beside it, the page's rollup reads and shaping in this process.
 */
async function trendsOnPostgres(repeat: number): Promise<Figure[]> {
  const { url, drop } = await createTestDatabaseUrl('postgres');
  await migrate({ url });
  const { openDatabase } = await import('../lib/db/core/client');
  const { rollupRows, topRollupValues } = await import('../lib/db/review/rollup');
  const { MAX_SERIES, prepareTrends, windowOf } = await import('../lib/charts/trends');
  const { upsertUser } = await import('../lib/auth/users');
  const db = openDatabase(url);
  let server: ProdServer | null = null;
  try {
    const now = new Date();
    const seededAt = performance.now();
    const runs = await seedMonth(db, now);
    const seedS = Math.round((performance.now() - seededAt) / 100) / 10;
    const rows = await db.prisma.runHour.count();
    await upsertUser(db, { email: 'bench-trends@example.com', password: 'bench-password-0123456789', roles: ['viewer'], tenant: 'bench' });
    server = await startProdServer(url);
    const cookie = await signIn(server.base, 'bench-trends@example.com', 'bench-password-0123456789');
    const n = Math.max(20, repeat * 10);
    const cases: Array<{ window: '24h' | '7d' | '30d'; by: 'all' | 'model' | 'source' | 'agent' | 'tag' }> = [
      { window: '30d', by: 'all' },
      { window: '30d', by: 'model' },
      { window: '30d', by: 'tag' },
      { window: '30d', by: 'agent' },
      { window: '30d', by: 'source' },
      { window: '7d', by: 'model' },
      { window: '24h', by: 'tag' },
    ];
    const figures: Figure[] = [];
    for (const c of cases) {
      const page = `${server.base}/trends?window=${c.window}&by=${c.by}`;
      await sampleGets(page, cookie, 3); // warm-up
      const http: number[] = [];
      const data: number[] = [];
      let bytes = 0;
      for (let done = 0; done < n; done += 5) {
        const got = await sampleGets(page, cookie, Math.min(5, n - done));
        http.push(...got.ms);
        bytes = got.bytes;
        for (let k = 0; k < Math.min(5, n - done); k++) {
          const t = performance.now();
          const w = windowOf(c.window, new Date());
          const window = { tenant: 'bench', dim: c.by, from: w.from, to: w.to };
          // As the page reads: the dimension's busiest values, and `all` for the totals.
          const values = c.by === 'all' ? undefined : await topRollupValues(window, MAX_SERIES, db);
          const [byDim, all] = await Promise.all([rollupRows(window, db, values, w.step, { series: c.by !== 'all' }), c.by === 'all' ? null : rollupRows({ ...window, dim: 'all' }, db, undefined, w.step)]);
          prepareTrends(byDim, w);
          if (all) prepareTrends(all, w);
          data.push(performance.now() - t);
        }
      }
      figures.push({
        name: `/trends ${c.window} by ${c.by} over HTTP (every chart of the page), p95`,
        value: round(percentile(http, 95), 1),
        unit: 'ms',
        target: '≤ 300 ms per chart',
        detail: `load ${os.loadavg()[0]!.toFixed(1)}; p50 ${round(median(http), 1)} ms, ${n} GETs, ${Math.round(bytes / 1024)} KiB HTML; the page's rollup reads + shaping in-process p95 ${round(percentile(data, 95), 1)} ms`,
      });
    }
    figures.push({ name: 'trends rollup seeded (PostgreSQL)', value: runs, unit: 'runs', detail: `${rows.toLocaleString('en')} hour rows over 720 hours (${SEED.models} models, ${SEED.agents} agents, ${SEED.tags} tags, 2 sources, 4 terminations), written in ${seedS} s with applyRollup` });
    return figures;
  } finally {
    server?.close();
    await db.close();
    await drop();
  }
}

export async function benchWatch(repeat: number): Promise<Figure[]> {
  const saved = { DATABASE_URL: process.env.DATABASE_URL, STOCKROOM_OTLP_TOKENS: process.env.STOCKROOM_OTLP_TOKENS };
  try {
    const parts = (process.env.BENCH_WATCH_PARTS ?? 'ingest,trends').split(',').map((p) => p.trim());
    const trends = parts.includes('trends') ? await trendsOnPostgres(repeat) : [];
    if (!parts.includes('ingest')) return trends;
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
      ...trends,
    ];
  } finally {
    process.env.DATABASE_URL = saved.DATABASE_URL;
    process.env.STOCKROOM_OTLP_TOKENS = saved.STOCKROOM_OTLP_TOKENS;
  }
}
