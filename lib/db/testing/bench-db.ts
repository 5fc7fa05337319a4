import 'server-only';
/**
 * Data-layer benchmarks for `npm run bench` (bench/bench.ts calls these and prints the figures):
 * storing a 250-run matrix, the runs page with 100,000 stored runs, and the replay page on a
 * 20,000-step run. Each uses its own throw-away database (SQLite temp file by default, or a temp
 * PostgreSQL database) and removes it afterwards. Run under tsx with `--conditions=react-server`.
 */
import { performance } from 'node:perf_hooks';
import { migrate } from '../../../scripts/db-migrate.mjs';
import { openDatabase, type Database } from '../core';
import { countRuns, listRuns, type ListRunsOptions } from '../runs';
import type { RunFilters } from '../runs';
import { getRunSteps, getRunSummary } from '../runs';
import { saveRun, saveRuns } from '../runs';
import { makeMeta, makeRun } from './run-fixtures';
import { createTestDatabaseUrl } from './test-databases';
import type { SaveRunInput } from '../runs';

export type BenchProvider = 'sqlite' | 'postgres';

/** Latency percentiles of repeated calls, in milliseconds. */
export interface Latency {
  samples: number;
  p50: number;
  p95: number;
  max: number;
}

function latency(ms: number[]): Latency {
  const sorted = [...ms].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  const round = (n: number) => Math.round(n * 100) / 100;
  return { samples: sorted.length, p50: round(at(0.5)), p95: round(at(0.95)), max: round(sorted[sorted.length - 1] ?? 0) };
}

async function timed<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const start = performance.now();
  const value = await fn();
  return [value, performance.now() - start];
}

export async function withDatabase<T>(provider: BenchProvider, fn: (db: Database, url: string) => Promise<T>): Promise<T> {
  const { url, drop } = await createTestDatabaseUrl(provider);
  await migrate({ url });
  const db = openDatabase(url);
  try {
    return await fn(db, url);
  } finally {
    await db.close();
    await drop();
  }
}

/**
 * Stores a matrix's runs (default: 250 realistic fixture runs, or `inputs` such as a real matrix's)
 * with `saveRuns`, after one warm-up write (the query compiler's first call is not what we measure).
 * Target: ≤ 1 s for 250 runs on SQLite.
 */
export async function benchPersistRuns(
  options: { provider?: BenchProvider; runs?: number; inputs?: SaveRunInput[] } = {},
): Promise<{ provider: BenchProvider; runs: number; ms: number }> {
  const provider = options.provider ?? 'sqlite';
  const inputs =
    options.inputs ??
    Array.from({ length: options.runs ?? 250 }, (_, i) => ({
      run: makeRun({ runId: `bench-${i}`, caseId: `case-${i % 50}`, weaknesses: i % 5 ? [['ambiguous_tool_desc', 'oversized_payload', 'naive_retry', 'injection_unguarded'][i % 4]!] : [] }),
      meta: makeMeta(),
    }));
  return withDatabase(provider, async (db) => {
    // Warm the write path (query compiler, JIT) as a running server would be.
    await saveRuns(Array.from({ length: 25 }, (_, i) => ({ run: makeRun({ runId: `warm-${i}` }), meta: makeMeta() })), db);
    const [, ms] = await timed(() => saveRuns(inputs.map((x) => ({ run: x.run, meta: { ...x.meta, id: undefined } })), db));
    return { provider, runs: inputs.length, ms: Math.round(ms) };
  });
}

const SETTINGS = ['none', 'ambiguous_tool_desc', 'oversized_payload', 'naive_retry', 'injection_unguarded'];
const REASONS = ['COMPLETED', 'COMPLETED', 'COMPLETED', 'MAX_STEPS', 'TOKEN_BUDGET', 'REPEATED_CALL', 'TIMEOUT'];
const CATEGORIES = ['lookup', 'restock', 'aggregate', 'compare', 'adversarial'];

/** SQL CASE picking `values[n % values.length]`. */
function pick(values: string[], n: string): string {
  return `CASE (${n}) % ${values.length} ${values.map((v, i) => `WHEN ${i} THEN '${v}'`).join(' ')} END`;
}

/**
 * Seeds `count` runs with one INSERT … SELECT over a generated series (seconds, not minutes, for
 * 100,000): varied settings, reasons, categories, cases, dates and numbers; ids are time-ordered.
 */
export async function seedRuns(db: Database, count: number): Promise<void> {
  const sqlite = db.provider === 'sqlite';
  const series = sqlite
    ? `WITH RECURSIVE seq(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM seq WHERE n < ${count - 1}) `
    : '';
  const from = sqlite ? 'FROM seq' : `FROM generate_series(0::bigint, ${count - 1}) AS seq(n)`;
  const id = sqlite ? `printf('%012x', 1735689600000 + n) || 'b000000000000000'` : `lpad(to_hex(1735689600000 + n), 12, '0') || 'b000000000000000'`;
  // Dates shuffled relative to ids (7919 is prime), so sorting by date is not sorting by id.
  const secs = `1735689600 + ((n * 7919) % ${count}) * 30`;
  const startedAt = sqlite ? `strftime('%Y-%m-%dT%H:%M:%f', ${secs}, 'unixepoch') || '+00:00'` : `to_timestamp(${secs}) AT TIME ZONE 'UTC'`;
  const setting = pick(SETTINGS, 'n');
  const weaknesses = `CASE n % 5 WHEN 0 THEN '[]' ELSE '["' || ${setting} || '"]' END`;
  const sql = `INSERT INTO "Run" ("id", "harnessRunId", "caseId", "category", "query", "datasetName", "datasetHash", "transport",
      "setting", "weaknesses", "config", "mode", "modelId", "terminationReason", "status", "finalAnswer", "steps", "trajectoryLength",
      "toolCallCount", "toolErrorCount", "blockedCount", "guardCount", "compactionCount", "modelCallCount", "inputTokens",
      "outputTokens", "totalTokens", "costUsd", "costNote", "startedAt", "durationMs", "createdAt", "systemPromptHash", "toolSpecsHash")
    ${series}SELECT ${id}, 'seed-' || CAST(n AS TEXT), 'case-' || CAST(n % 61 AS TEXT), ${pick(CATEGORIES, 'n / 7')},
      'How many widgets of kind ' || CAST(n % 1000 AS TEXT) || ' are in stock?', CASE n % 10 WHEN 0 THEN 'other' ELSE 'stockroom-v1' END,
      'seedhash', 'local', ${setting}, ${weaknesses}, '{}', 'mock', 'fake-model', ${pick(REASONS, 'n / 3')}, 'finished', 'answer',
      1 + n % 12, 2 + n % 25, n % 12, n % 3, n % 2, CASE n % 7 WHEN 0 THEN 1 ELSE 0 END, n % 2, 1 + n % 12,
      1000 + n % 5000, 100 + n % 700, 1100 + n % 5000 + n % 700, (n % 1000) * 0.0001, 'seed', ${startedAt}, (n % 9973) * 1.5,
      ${startedAt}, 'seed', 'seed'
    ${from}`;
  await db.prisma.$executeRawUnsafe(sql);
  await db.prisma.$executeRawUnsafe(`INSERT INTO "RunFlag" ("runId", "flag") SELECT "id", "setting" FROM "Run" WHERE "setting" <> 'none'`);
  await seedSearchText(db);
  // Fresh statistics, as a long-lived database would have, so the planner picks the indexes.
  await db.prisma.$executeRawUnsafe('ANALYZE');
}

/** The tracking number seedSearchText puts in run `n`'s tool result (distinct for every n < 1e9+7). */
export function seededTrackingNumber(n: number): string {
  return `1Z${String((n * 7919) % 1_000_000_007).padStart(10, '0')}`;
}

/**
 * The search text of seeded runs, in run-search.ts's layout (the triggers index it as a saved run's
 * is): the question, an answer, a get_stock call with a SKU, and a result holding a shipment's
 * tracking number that appears nowhere else.
 */
async function seedSearchText(db: Database): Promise<void> {
  const sqlite = db.provider === 'sqlite';
  const [rs, us] = sqlite ? ['char(30)', 'char(31)'] : ['chr(30)', 'chr(31)'];
  const num = (expr: string, width: number) => (sqlite ? `printf('%0${width}d', ${expr})` : `lpad((${expr})::text, ${width}, '0')`);
  const n = sqlite ? `CAST(substr(r."harnessRunId", 6) AS INTEGER)` : `substr(r."harnessRunId", 6)::bigint`;
  const sql = `INSERT INTO "RunSearch" ("runId", "body")
    SELECT r."id", 'Q' || ${us} || r."query" || ${rs} || 'A' || ${us} || 'There are ' || CAST(${n} % 40 AS TEXT) || ' widgets of kind '
      || CAST(${n} % 1000 AS TEXT) || ' in stock; the last order has shipped.'
      || ${rs} || 'C:get_stock' || ${us} || '{"sku":"SKU-' || ${num(`${n} % 20000`, 5)} || '"}'
      || ${rs} || 'R:get_stock' || ${us} || '{"sku":"SKU-' || ${num(`${n} % 20000`, 5)} || '","stock":' || CAST(${n} % 40 AS TEXT)
      || ',"shipment":{"carrier":"UPS","tracking":"1Z' || ${num(`(${n} * 7919) % 1000000007`, 10)} || '"},"notes":"Warehouse B, aisle '
      || CAST(${n} % 50 AS TEXT) || ', restocked weekly; handle with care."}'
    FROM "Run" r WHERE r."harnessRunId" LIKE 'seed-%'`;
  if (!sqlite) {
    // Building the trigram index once over every body is several times faster than growing it by a
    // million inserts; the migration's index is set aside meanwhile and made again as it was.
    const index = await db.prisma.$queryRawUnsafe<Array<{ sql: string }>>(`SELECT "indexdef" AS "sql" FROM "pg_indexes" WHERE "tablename" = 'RunSearch' AND "indexname" = 'RunSearch_body_trgm_idx'`);
    if (!index[0]) throw new Error('RunSearch_body_trgm_idx is missing: is the database migrated?');
    await db.prisma.$executeRawUnsafe('DROP INDEX "RunSearch_body_trgm_idx"');
    await db.prisma.$executeRawUnsafe(sql);
    await db.prisma.$executeRawUnsafe(index[0].sql);
    return;
  }
  // One FTS5 rebuild indexes 100,000 bodies in about a third of the time 100,000 trigger firings
  // take; the migration's own trigger is set aside meanwhile and restored as it was.
  const trigger = await db.prisma.$queryRawUnsafe<Array<{ sql: string }>>(`SELECT "sql" FROM "sqlite_master" WHERE "type" = 'trigger' AND "name" = 'RunSearch_fts_insert'`);
  if (!trigger[0]) throw new Error('RunSearch_fts_insert trigger is missing: is the database migrated?');
  await db.prisma.$executeRawUnsafe('DROP TRIGGER "RunSearch_fts_insert"');
  await db.prisma.$executeRawUnsafe(sql);
  await db.prisma.$executeRawUnsafe(`INSERT INTO "RunSearchFts" ("RunSearchFts") VALUES ('rebuild')`);
  await db.prisma.$executeRawUnsafe(trigger[0].sql);
}

/** What each of textVariants' searches is, in its order (the bench names the slowest). */
const TEXT_VARIANT_KINDS = ['a tracking number', 'part of one', 'a SKU', 'a question fragment (1%)', 'a result fragment (22%)', 'a phrase in every run'] as const;

/**
 * Text searches as the runs page runs them (the caller's tenant, 50 rows and a count): a whole
 * tracking number found only in a tool result, part of one, a SKU, a question fragment (1% of
 * runs), a result fragment in 22% of runs, and a phrase in every run (the last two are common enough
 * to be matched row by row rather than through the index).
 */
function textVariants(seeded: number, i: number): RunFilters[] {
  const n = (i * 104729) % seeded;
  return [
    { tenant: 'kittiwake', text: seededTrackingNumber(n) },
    { tenant: 'kittiwake', text: seededTrackingNumber(n).slice(3, 10) },
    { tenant: 'kittiwake', text: `SKU-${String(n % 20000).padStart(5, '0')}` },
    { tenant: 'kittiwake', text: 'kind 42 ' },
    { tenant: 'kittiwake', text: 'aisle 1' },
    { tenant: 'kittiwake', text: 'widgets of kind' },
  ];
}

/** The runs page's queries: a page and a (capped) count, as the page server runs them together. */
const PAGE_VARIANTS: Array<{ filters: RunFilters; sort?: ListRunsOptions['sort'] }> = [
  { filters: {} },
  { filters: { setting: 'naive_retry' } },
  { filters: { flags: ['oversized_payload'] } },
  { filters: { terminationReason: 'MAX_STEPS' }, sort: { key: 'durationMs', dir: 'desc' } },
  { filters: { category: 'restock', datasetName: 'stockroom-v1' } },
  { filters: { caseId: 'case-7' } },
  { filters: { text: 'kind 42 ' } },
  { filters: {}, sort: { key: 'totalTokens', dir: 'asc' } },
  { filters: {}, sort: { key: 'costUsd', dir: 'desc' } },
];

/**
 * Runs-page response time with `seedRuns` (default 100,000) stored: each sample is listRuns (50
 * rows, first page or a page deep in the result via its cursor) plus countRuns, over varied
 * filters and sorts. Target: p95 ≤ 150 ms.
 */
export async function benchRunsPage(
  options: { provider?: BenchProvider; seedRuns?: number; samples?: number } = {},
): Promise<{ provider: BenchProvider; seeded: number; seedMs: number; page: Latency; text: Latency; slowestText: { kind: string; p95: number } }> {
  const provider = options.provider ?? 'sqlite';
  const seeded = options.seedRuns ?? 100_000;
  const samples = options.samples ?? 200;
  return withDatabase(provider, async (db) => {
    const [, seedMs] = await timed(() => seedRuns(db, seeded));
    // Cursors ten pages deep for each variant, to time deep pages too.
    const deep: Array<string | null> = [];
    for (const v of PAGE_VARIANTS) {
      let cursor: string | null = null;
      for (let i = 0; i < 10; i++) cursor = (await listRuns({ ...v, cursor, limit: 50 }, db)).nextCursor ?? cursor;
      deep.push(cursor);
    }
    const ms: number[] = [];
    for (let i = 0; i < samples; i++) {
      const v = PAGE_VARIANTS[i % PAGE_VARIANTS.length]!;
      const cursor = i % 2 ? deep[i % PAGE_VARIANTS.length]! : null;
      const [, t] = await timed(() => Promise.all([listRuns({ ...v, cursor, limit: 50 }, db), countRuns(v.filters, {}, db)]));
      ms.push(t);
    }
    const text: number[] = [];
    const byKind = new Map<string, number[]>();
    for (let i = 0; i < samples; i++) {
      const variants = textVariants(seeded, i);
      const k = i % variants.length;
      const filters = variants[k]!;
      const [, t] = await timed(() => Promise.all([listRuns({ filters, limit: 50 }, db), countRuns(filters, {}, db)]));
      text.push(t);
      const kind = TEXT_VARIANT_KINDS[k]!;
      byKind.set(kind, [...(byKind.get(kind) ?? []), t]);
    }
    const slowestText = [...byKind].map(([kind, t]) => ({ kind, p95: latency(t).p95 })).sort((a, b) => b.p95 - a.p95)[0] ?? { kind: '', p95: 0 };
    return { provider, seeded, seedMs: Math.round(seedMs), page: latency(ms), text: latency(text), slowestText };
  });
}

/**
 * Replay-page response time on a `steps`-entry run (default 20,000): summary plus one page of 200
 * entries at a random position. Also reports how long storing that run took. Target: p95 ≤ 300 ms.
 */
export async function benchReplayPage(
  options: { provider?: BenchProvider; steps?: number; samples?: number; pageSize?: number } = {},
): Promise<{ provider: BenchProvider; steps: number; saveMs: number; page: Latency }> {
  const provider = options.provider ?? 'sqlite';
  const samples = options.samples ?? 200;
  const pageSize = options.pageSize ?? 200;
  // Each round is a model turn and a tool call; the whole catalogue payload recurs every other round.
  const run = makeRun({ runId: 'long', rounds: Math.ceil((options.steps ?? 20_000) / 2), recordInputs: false });
  run.usage.perCall = [];
  return withDatabase(provider, async (db) => {
    await saveRun(makeRun({ runId: 'warm-up' }), makeMeta(), db);
    const [id, saveMs] = await timed(() => saveRun(run, makeMeta(), db));
    const steps = run.trajectory.length;
    let seed = 1;
    const random = () => ((seed = (seed * 48271) % 2147483647), seed / 2147483647);
    const ms: number[] = [];
    for (let i = 0; i < samples; i++) {
      const from = Math.floor(random() * (steps - pageSize));
      const [, t] = await timed(() => Promise.all([getRunSummary(id, db), getRunSteps(id, { fromIndex: from, toIndex: from + pageSize }, db)]));
      ms.push(t);
    }
    return { provider, steps, saveMs: Math.round(saveMs), page: latency(ms) };
  });
}

/** A printed benchmark figure (the shape bench/bench.ts prints). */
export interface DbFigure {
  name: string;
  value: number;
  unit: string;
  target?: string;
  detail?: string;
}

/**
 * The `db` section of `npm run bench`: the three figures on SQLite, plus PostgreSQL when
 * `BENCH_DB_POSTGRES=1`. Persisting is repeated `repeat` times (median reported).
 */
export async function benchDb(repeat = 5): Promise<DbFigure[]> {
  // The benchmark's own switch (npm run bench), not read by the web server, worker or CLI: not in lib/startup/env.ts.
  const providers: BenchProvider[] = process.env.BENCH_DB_POSTGRES === '1' ? ['sqlite', 'postgres'] : ['sqlite'];
  const figures: DbFigure[] = [];
  for (const provider of providers) {
    const persists: number[] = [];
    for (let i = 0; i < repeat; i++) persists.push((await benchPersistRuns({ provider })).ms);
    const median = [...persists].sort((a, b) => a - b)[Math.floor(persists.length / 2)] ?? 0;
    figures.push({ name: `matrix persisted, 250 runs (${provider})`, value: median / 1000, unit: 's', target: '≤ 1 s', detail: `runs: ${persists.join(', ')} ms` });
    const runs = await benchRunsPage({ provider });
    figures.push({
      name: `runs page, ${runs.seeded.toLocaleString('en')} runs, p95 (${provider})`,
      value: runs.page.p95,
      unit: 'ms',
      target: '≤ 150 ms',
      detail: `p50 ${runs.page.p50} ms, seeded in ${runs.seedMs} ms`,
    });
    figures.push({
      name: `text search, ${runs.seeded.toLocaleString('en')} runs, p95 (${provider})`,
      value: runs.text.p95,
      unit: 'ms',
      target: '≤ 50 ms',
      detail: `p50 ${runs.text.p50} ms, max ${runs.text.max} ms, slowest: ${runs.slowestText.kind} (p95 ${runs.slowestText.p95} ms); question, answer, tool arguments and results`,
    });
    const replay = await benchReplayPage({ provider });
    figures.push({
      name: `replay page, ${replay.steps.toLocaleString('en')}-step run, p95 (${provider})`,
      value: replay.page.p95,
      unit: 'ms',
      target: '≤ 300 ms',
      detail: `p50 ${replay.page.p50} ms, run stored in ${replay.saveMs} ms`,
    });
  }
  return figures;
}
