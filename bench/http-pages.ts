/**
 * Server response time of the real pages over HTTP: the production server (next start) on a
 * throw-away SQLite database holding 100,000 runs and one 20,000-step run, signed in as a viewer
 * (`http`); and the runs pages on PostgreSQL holding a million runs (`runs1m`, a kept database).
 * Each sample is one GET of the whole server-rendered page, as a browser would ask for it. Next to
 * it, in the same run and on the same database, the page's data-layer calls alone (the same lib/db
 * functions with the same inputs, in this process): the difference is the server's rendering,
 * serialisation (RSC payload, HTML) and sending; the page's HTML and RSC payload sizes are printed too.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { migrate } from '../scripts/db-migrate.mjs';
import { openDatabase } from '../lib/db/core/client';
import { seedRuns } from '../lib/db/testing/bench-db';
import { saveRun } from '../lib/db/runs/runs-write';
import { makeMeta, makeRun } from '../lib/db/testing/run-fixtures';
import { upsertUser } from '../lib/auth/users';
import pg from 'pg';
import { descendants } from '../lib/jobs/testing/worker-processes';
import { percentile, median, round, type Figure } from './stats';
import { sampleGets as sample, signIn, startProdServer, type ProdServer } from './prod-server';
import type { Database } from '../lib/db/core/client';
import { countRuns, listRunModelIds, listRuns } from '../lib/db/runs/runs-list';
import { listRunsGrouped } from '../lib/db/runs/runs-grouped';
import { approvalsForRuns } from '../lib/db/governance/governance-approvals';
import { currentLabelSet, labelSummaries, labelsOfRun, unverifiedLabels } from '../lib/db/review/labels';
import { runTenant } from '../lib/db/governance/tenant-scope';
import { scoredEvaluatorNames, scoreSummaries } from '../lib/db/review/run-scores';
import { getRunSummary } from '../lib/db/runs/runs-read';
import { getRunTimelineHead } from '../lib/db/runs/run-timeline';
import { REPLAY_HEAD_TRANSITIONS } from '../app/runs/[id]/load-timeline';
import { findGovernedRun } from '../lib/db/governance/governance-runs';
import { RunsQuerySchema, columnSortOf, groupingBlockedBy, runFiltersOf } from '../lib/schemas/runs-query';
import { DEFAULT_TENANT } from '../lib/governance/principal';

const EMAIL = 'bench-viewer@example.com';
const PASSWORD = 'bench-password-0123456789';

async function sampleData(fn: () => Promise<unknown>, n: number): Promise<number[]> {
  const ms: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await fn();
    ms.push(performance.now() - t0);
  }
  return ms;
}

/**
 * The runs page's data-layer calls (app/runs/page.tsx) for `search`, in the order and grouping the
 * page makes them, as the signed-in viewer of the default tenant.
 */
async function runsPageData(db: Database, search: Record<string, string>): Promise<void> {
  const query = RunsQuerySchema.parse(search);
  const filters = runFiltersOf(query, DEFAULT_TENANT);
  const list =
    groupingBlockedBy(query) === null
      ? listRunsGrouped({ filters, dir: query.dir, cursor: query.cursor, limit: query.size }, db).then((p) => p.rows.flatMap((r) => (r.kind === 'run' ? [r.run] : [])))
      : listRuns({ filters, sort: columnSortOf(query), cursor: query.cursor, limit: query.size }, db).then((p) => p.items);
  const [items] = await Promise.all([list, countRuns(filters, {}, db), listRunModelIds(DEFAULT_TENANT, db), currentLabelSet(DEFAULT_TENANT, db)]);
  await Promise.all([
    approvalsForRuns(db.prisma, items.filter((r) => r.status === 'paused').map((r) => r.id)),
    labelSummaries(DEFAULT_TENANT, items.map((r) => r.id), db),
    scoreSummaries(DEFAULT_TENANT, items.map((r) => r.id), db),
    scoredEvaluatorNames(DEFAULT_TENANT, db),
  ]);
}

/** The replay page's data-layer calls (app/runs/[id]/page.tsx) for a viewer, who may neither curate nor replay against. */
async function replayPageData(db: Database, id: string): Promise<void> {
  if ((await runTenant(id, db)) !== DEFAULT_TENANT) throw new Error(`run ${id} is not in ${DEFAULT_TENANT}`);
  const run = await getRunSummary(id, db);
  if (!run) throw new Error(`run ${id} not found`);
  await getRunTimelineHead(run.id, REPLAY_HEAD_TRANSITIONS, db);
  await findGovernedRun(db.prisma, run.id);
  await Promise.all([
    currentLabelSet(DEFAULT_TENANT, db),
    labelsOfRun(DEFAULT_TENANT, run.id, db),
    unverifiedLabels(DEFAULT_TENANT, run.id, db),
  ]);
}

/** CPU (user + system, ms) used so far by process `pid` and its descendants (NaN where /proc is not readable). */
function treeCpuMs(pid: number): number {
  let ticks = 0;
  for (const p of [pid, ...descendants(pid)]) {
    try {
      const stat = fs.readFileSync(`/proc/${p}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      return Number.NaN;
    }
  }
  // Linux's USER_HZ (100 on every mainstream kernel), as bench/jobs.ts reads it.
  return ticks * 10;
}

const kib = (bytes: number): string => `${round(bytes / 1024, 1)} KiB`;

/** A page to time: its address, its target, and its data-layer calls (null: a route with no page part). */
interface TimedPage {
  name: string;
  short: string;
  url: string;
  target: string;
  data: (() => Promise<void>) | null;
}

/**
 * Starts the production server on `url` (scripts/start.mjs: migrate, build when stale, serve), signs
 * the viewer in, and times each page over HTTP beside its data-layer part in this process.
 */
async function timePages(url: string, repeat: number, pagesOf: (base: string, db: Database) => TimedPage[]): Promise<Figure[]> {
  let server: ProdServer | null = null;
  let dataDb: Database | null = null;
  try {
    // BENCH_HTTP_SERVER_NODE_OPTIONS: NODE_OPTIONS for the server alone (e.g. `--require <a profiler preload>`).
    server = await startProdServer(url, process.env.BENCH_HTTP_SERVER_NODE_OPTIONS ? { NODE_OPTIONS: process.env.BENCH_HTTP_SERVER_NODE_OPTIONS } : {});
    const base = server.base;
    const cookie = await signIn(base, EMAIL, PASSWORD);
    const n = Math.max(20, repeat * 10);
    // The same database, opened by this process, for the data-layer part of each page.
    dataDb = openDatabase(url);
    const figures: Figure[] = [];
    for (const page of pagesOf(base, dataDb)) {
      await sample(page.url, cookie, 3); // warm-up: compile and cache
      // Interleaved in blocks so a burst of load on the shared machine hits both parts alike.
      const whole: number[] = [];
      const data: number[] = [];
      let bytes = 0;
      // The server's own CPU over the GETs (the data-layer samples run in this process): a figure the
      // shared machine's load moves far less than the wall-clock times.
      let serverCpu = 0;
      for (let done = 0; done < n; done += 5) {
        const before = treeCpuMs(server.pid!);
        const got = await sample(page.url, cookie, Math.min(5, n - done));
        serverCpu += treeCpuMs(server.pid!) - before;
        whole.push(...got.ms);
        bytes = got.bytes;
        if (page.data) data.push(...(await sampleData(page.data, Math.min(5, n - done))));
      }
      const p95 = percentile(whole, 95);
      figures.push({ name: `${page.name} (HTTP)`, value: round(p95, 1), unit: 'ms', target: page.target, detail: `p50 ${round(median(whole), 1)} ms, ${n} GETs, ${kib(bytes)} HTML` });
      if (Number.isFinite(serverCpu)) figures.push({ name: `  ${page.short}: server CPU per GET`, value: round(serverCpu / n, 1), unit: 'ms', detail: 'user + system of the server process, from /proc' });
      if (page.data) {
        // What a client-side navigation to the page fetches (Next redirects an RSC request to the address with its `_rsc` key).
        const rsc = await sample(page.url, cookie, 1, { RSC: '1' }, 'follow');
        const dataP95 = percentile(data, 95);
        figures.push({ name: `  ${page.short}: data layer alone, p95`, value: round(dataP95, 1), unit: 'ms', detail: `p50 ${round(median(data), 1)} ms, the page's lib/db calls in this process` });
        figures.push({
          name: `  ${page.short}: render + serialise + send (HTTP − data), p50`,
          value: round(median(whole) - median(data), 1),
          unit: 'ms',
          detail: `p95 difference ${round(p95 - dataP95, 1)} ms; RSC payload ${kib(rsc.bytes)}, HTML ${kib(bytes)}`,
        });
      }
    }
    return figures;
  } finally {
    await dataDb?.close();
    server?.close();
  }
}

/** The runs page plain, filtered by a setting and searched for a text, as the viewer of the default tenant. */
function runsPages(base: string, db: Database, seeded: string, target: string): TimedPage[] {
  return [
    { name: `runs page, ${seeded} runs, p95`, short: 'runs', url: `${base}/runs`, target, data: () => runsPageData(db, {}) },
    { name: 'runs page filtered (setting naive_retry), p95', short: 'filtered', url: `${base}/runs?setting=naive_retry`, target, data: () => runsPageData(db, { setting: 'naive_retry' }) },
    { name: 'runs page text search, p95', short: 'search', url: `${base}/runs?q=kind%2042`, target, data: () => runsPageData(db, { q: 'kind 42' }) },
  ];
}

export async function benchHttpPages(repeat: number): Promise<Figure[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stockroom-bench-http-'));
  const url = `file:${path.join(dir, 'bench.db')}`;
  try {
    await migrate({ url });
    const db = openDatabase(url);
    let longId: string;
    try {
      await seedRuns(db, 100_000);
      const long = makeRun({ runId: 'long', rounds: 10_000, recordInputs: false });
      long.usage.perCall = [];
      longId = await saveRun(long, makeMeta(), db);
      await upsertUser(db, { email: EMAIL, password: PASSWORD, roles: ['viewer'] });
    } finally {
      await db.close();
    }
    return await timePages(url, repeat, (base, db) => [
      ...runsPages(base, db, '100,000', '≤ 100 ms'),
      { name: 'replay page, 20,000-step run, p95', short: 'replay', url: `${base}/runs/${longId}`, target: '≤ 200 ms', data: () => replayPageData(db, longId) },
      // The replay fetches its waterfall after the page (issue 26): the same run's bars, packed.
      { name: 'replay waterfall, 20,000-step run, p95', short: 'waterfall', url: `${base}/api/runs/${longId}/waterfall`, target: '≤ 300 ms', data: null },
      // The page sends the head of the run's skeleton; the replay fetches the whole right after it.
      { name: 'replay skeleton after the page, 20,000-step run, p95', short: 'skeleton', url: `${base}/api/runs/${longId}/timeline`, target: '≤ 300 ms', data: null },
    ]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Runs the `runs1m` section seeds: a million, on PostgreSQL. */
const MILLION = 1_000_000;
/** The section's database, kept between runs of the bench (seeding a million runs takes minutes): drop it to seed afresh. */
export const MILLION_RUNS_DATABASE = 'stockroom_bench_runs_1m';
/** The comment the seed leaves on its database once complete: a database without it is seeded again. */
const SEEDED_MARK = `stockroom bench: ${MILLION} runs seeded`;

/**
 * The `runs1m` section's PostgreSQL database: reused when an earlier run seeded it completely
 * (migrated to the current schema first), else created and seeded (seedRuns, generate_series)
 * and vacuumed, as a long-lived database's autovacuum would have left it (the visibility map lets a
 * count be read from an index alone). Returns its URL and the seeding time (0 when reused).
 */
async function millionRunsDatabase(): Promise<{ url: string; seedMs: number }> {
  // The PostgreSQL server the tests use (STOCKROOM_TEST_PG), as bench/jobs.ts does.
  const server = process.env.STOCKROOM_TEST_PG ?? 'postgresql://postgres@127.0.0.1:5432';
  const url = `${server}/${MILLION_RUNS_DATABASE}`;
  const admin = new pg.Client({ connectionString: `${server}/postgres` });
  await admin.connect();
  try {
    const found = await admin.query<{ mark: string | null }>(`SELECT shobj_description(oid, 'pg_database') AS "mark" FROM pg_database WHERE datname = $1`, [MILLION_RUNS_DATABASE]);
    if (found.rows[0]?.mark === SEEDED_MARK) {
      await migrate({ url });
      const db = openDatabase(url);
      try {
        await upsertUser(db, { email: EMAIL, password: PASSWORD, roles: ['viewer'] });
      } finally {
        await db.close();
      }
      return { url, seedMs: 0 };
    }
    // Ours and unfinished (a seed cut short): made again from nothing.
    if (found.rows.length) await admin.query(`DROP DATABASE "${MILLION_RUNS_DATABASE}" WITH (FORCE)`);
    await admin.query(`CREATE DATABASE "${MILLION_RUNS_DATABASE}"`);
    const started = performance.now();
    await migrate({ url });
    const db = openDatabase(url);
    try {
      await seedRuns(db, MILLION);
      await db.prisma.$executeRawUnsafe('VACUUM ANALYZE');
      await upsertUser(db, { email: EMAIL, password: PASSWORD, roles: ['viewer'] });
    } finally {
      await db.close();
    }
    await admin.query(`COMMENT ON DATABASE "${MILLION_RUNS_DATABASE}" IS '${SEEDED_MARK}'`);
    return { url, seedMs: performance.now() - started };
  } finally {
    await admin.end();
  }
}

/**
 * `runs1m`: the runs page plain, filtered and searched over HTTP with a million runs on PostgreSQL
 * (the production server on the section's kept database; see millionRunsDatabase).
 */
export async function benchHttpMillionRuns(repeat: number): Promise<Figure[]> {
  const { url, seedMs } = await millionRunsDatabase();
  const figures = await timePages(url, repeat, (base, db) => runsPages(base, db, '1,000,000', '≤ 150 ms'));
  return [
    { name: `seed, ${MILLION.toLocaleString('en')} runs (PostgreSQL)`, value: round(seedMs / 1000, 1), unit: 's', detail: seedMs === 0 ? `reused ${MILLION_RUNS_DATABASE}` : `into ${MILLION_RUNS_DATABASE}, kept for the next run` },
    ...figures,
  ];
}
