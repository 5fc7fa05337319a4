import 'server-only';
/**
 * Text search over runs through their search index (RunSearch; see run-search.ts for the layout).
 *
 * SQLite: the FTS5 trigram table RunSearchFts, queried with the text as one quoted phrase.
 * PostgreSQL: ILIKE on RunSearch.body, served by its pg_trgm GIN index.
 * Both find any case-insensitive substring of 3+ characters through the index.
 *
 * A text-filtered page is one SQL statement: Prisma can neither express an FTS5 MATCH nor bind the
 * thousands of matching ids an `id IN (…)` would need (it allows 999 values on SQLite), so the filters
 * are compiled here, the same columns runWhere filters on. A page of a text in at most
 * MAX_INDEXED_MATCHES runs takes the index's hits and sorts them; a page of a commoner text tests
 * rows in sort order and stops at a page, cheap exactly because matches are common. Counts stop at
 * the cap (TEXT_COUNT_CAP for a text search). Texts are at least MIN_SEARCH_TEXT characters (a trigram).
 *
 * The capped count of a filter set without text is compiled here too (filteredRunCount): Prisma's
 * `count({ take })` adds `ORDER BY id`, which walks the primary key and reads up to the cap's rows of
 * Run to test the filters, where a plain `LIMIT` lets an index on the filtered columns answer alone.
 */
import { Prisma as Sql } from '../generated/sqlite/client';
import type { Database } from '../core';
import { findMatch, ftsPhrase, likePattern, normaliseSearchText, type RunTextMatch } from './run-search';
import type { RunFilters } from './run-filters';

/** Above this many index hits, materialising them costs more than testing rows in sort order. */
export const MAX_INDEXED_MATCHES = 10_000;

type Condition = ReturnType<typeof Sql.sql>;

/** The Run columns a filter compares for equality (RunFilters key → column). */
const EQUALS = {
  tenant: 'tenant',
  datasetName: 'datasetName',
  setting: 'setting',
  category: 'category',
  terminationReason: 'terminationReason',
  caseId: 'caseId',
  suiteRunId: 'suiteRunId',
  transport: 'transport',
  status: 'status',
  source: 'source',
  modelId: 'modelId',
  sessionId: 'sessionId',
  traceUserId: 'traceUserId',
} as const satisfies Partial<Record<keyof RunFilters, string>>;

/** Rows of RunSearch a PostgreSQL estimate of a text's commonness samples (about). */
const SAMPLE_ROWS = 2_000;

/**
 * Whether more than MAX_INDEXED_MATCHES runs hold `text` (all tenants: an upper bound). SQLite's
 * FTS5 hands its hits over one at a time, so counting to the threshold is cheap. PostgreSQL's trigram
 * index cannot stop early, and counting a common text row by row tests tens of thousands of rows, so
 * there it is estimated from a fixed sample of about SAMPLE_ROWS rows (REPEATABLE: the same text
 * decides the same way). The choice only picks the faster plan; both find the same runs.
 */
async function isCommon(db: Database, text: string): Promise<boolean> {
  // A runs page asks twice (its rows and its count) and its next page again: the answer is kept a
  // little while per database, as it only picks the faster plan (a stale one finds the same runs).
  let known = commonness.get(db);
  if (!known) commonness.set(db, (known = new Map()));
  const kept = known.get(text);
  const now = Date.now();
  if (kept && now - kept.at < COMMONNESS_KEPT_MS) return kept.common;
  const common = await measureCommonness(db, text);
  if (known.size >= COMMONNESS_KEPT) known.delete(known.keys().next().value!);
  known.delete(text);
  known.set(text, { common, at: now });
  return common;
}

/** How long, and for how many texts per database, isCommon keeps an answer. */
const COMMONNESS_KEPT_MS = 60_000;
const COMMONNESS_KEPT = 256;
const commonness = new WeakMap<Database, Map<string, { common: boolean; at: number }>>();

async function measureCommonness(db: Database, text: string): Promise<boolean> {
  const limit = MAX_INDEXED_MATCHES + 1;
  if (db.provider === 'sqlite') {
    const rows = await db.prisma.$queryRaw<Array<{ n: number | bigint }>>`SELECT count(*) AS "n" FROM
      (SELECT 1 FROM "RunSearchFts" WHERE "RunSearchFts" MATCH ${ftsPhrase(text)} LIMIT ${limit}) AS "hits"`;
    return Number(rows[0]?.n ?? 0) > MAX_INDEXED_MATCHES;
  }
  const stats = await db.prisma.$queryRaw<Array<{ n: number }>>`SELECT reltuples::float8 AS "n" FROM pg_class WHERE oid = '"RunSearch"'::regclass`;
  // Never analysed (-1): count, once per search, rather than guess.
  let total = Number(stats[0]?.n ?? -1);
  if (total < 0) total = Number((await db.prisma.$queryRaw<Array<{ n: bigint }>>`SELECT count(*) AS "n" FROM "RunSearch"`)[0]?.n ?? 0);
  if (total <= MAX_INDEXED_MATCHES) return false;
  const percent = Math.min(100, (SAMPLE_ROWS / total) * 100);
  const sample = await db.prisma.$queryRaw<Array<{ hits: bigint; seen: bigint }>>`SELECT count(*) FILTER (WHERE "body" ILIKE ${likePattern(text)} ESCAPE '!') AS "hits",
    count(*) AS "seen" FROM "RunSearch" TABLESAMPLE SYSTEM (${percent}) REPEATABLE (42)`;
  const seen = Number(sample[0]?.seen ?? 0);
  return seen > 0 && (Number(sample[0]?.hits ?? 0) / seen) * total > MAX_INDEXED_MATCHES;
}

/** How a query finds the text: a WITH prefix (possibly empty) and a condition on `r`. */
interface TextMatchSql {
  with: Condition;
  condition: Condition;
}

/**
 * The text condition on `r`. A rare text takes the index's hits: SQLite's FTS5 subquery, or on
 * PostgreSQL a MATERIALIZED CTE (joined with Run, the planner underrates ILIKE's cost per row and
 * prefers a sequential scan to the trigram index). A common text is tested per row with LIKE, so
 * walking the sort index stops after a page of matches. SQLite's LIKE folds ASCII case only (the
 * index and PostgreSQL's ILIKE fold all), which only a common text ever meets.
 */
function textMatchSql(db: Database, text: string, common: boolean): TextMatchSql {
  const sqlite = db.provider === 'sqlite';
  const pattern = likePattern(text);
  const like = sqlite ? Sql.sql`LIKE ${pattern} ESCAPE '!'` : Sql.sql`ILIKE ${pattern} ESCAPE '!'`;
  if (common) return { with: Sql.empty, condition: Sql.sql`EXISTS (SELECT 1 FROM "RunSearch" s WHERE s."runId" = r."id" AND s."body" ${like})` };
  if (sqlite)
    return {
      with: Sql.empty,
      condition: Sql.sql`r."id" IN (SELECT s."runId" FROM "RunSearchFts" JOIN "RunSearch" s ON s."seq" = "RunSearchFts"."rowid"
        WHERE "RunSearchFts" MATCH ${ftsPhrase(text)})`,
    };
  return {
    with: Sql.sql`WITH "hits" AS MATERIALIZED (SELECT "runId" FROM "RunSearch" WHERE "body" ${like}) `,
    condition: Sql.sql`r."id" IN (SELECT "runId" FROM "hits")`,
  };
}

/** The non-text filters as SQL conditions on `r` (the same columns runWhere filters on). */
function filterConditions(f: RunFilters): Condition[] {
  const out: Condition[] = [];
  for (const [key, column] of Object.entries(EQUALS) as Array<[keyof typeof EQUALS, string]>) {
    const value = f[key];
    // runWhere skips empty strings except for tenant; so does this.
    if (value === undefined || (value === '' && key !== 'tenant')) continue;
    out.push(Sql.sql`r.${Sql.raw(`"${column}"`)} = ${value}`);
  }
  for (const flag of new Set(f.flags ?? [])) out.push(Sql.sql`EXISTS (SELECT 1 FROM "RunFlag" x WHERE x."runId" = r."id" AND x."flag" = ${flag})`);
  if (f.guard) out.push(Sql.sql`EXISTS (SELECT 1 FROM "RunGuardOn" g WHERE g."runId" = r."id" AND g."guard" = ${f.guard})`);
  if (f.agent) out.push(Sql.sql`EXISTS (SELECT 1 FROM "RunAgent" ag WHERE ag."runId" = r."id" AND ag."name" = ${f.agent})`);
  if (f.tag) out.push(Sql.sql`EXISTS (SELECT 1 FROM "RunTag" tg WHERE tg."runId" = r."id" AND tg."tag" = ${f.tag})`);
  if (f.minAgents !== undefined) out.push(Sql.sql`r."agentCount" >= ${f.minAgents}`);
  if (f.labelled === 'yes') out.push(Sql.sql`EXISTS (SELECT 1 FROM "RunLabel" l WHERE l."runId" = r."id")`);
  if (f.labelled === 'no') out.push(Sql.sql`NOT EXISTS (SELECT 1 FROM "RunLabel" l WHERE l."runId" = r."id")`);
  if (f.label) out.push(Sql.sql`EXISTS (SELECT 1 FROM "RunLabel" l WHERE l."runId" = r."id" AND (l."verdict" = ${f.label} OR l."category" = ${f.label}))`);
  if (f.toolError) out.push(Sql.sql`r."toolErrorCount" > 0`);
  if (f.tainted) out.push(Sql.sql`r."taintedStep" IS NOT NULL`);
  if (f.minDurationMs !== undefined) out.push(Sql.sql`r."durationMs" > ${f.minDurationMs}`);
  if (f.minCostUsd !== undefined) out.push(Sql.sql`r."costKnown" = TRUE AND r."costUsd" > ${f.minCostUsd}`);
  if (f.evaluator) {
    const ranged = f.minScore !== undefined || f.maxScore !== undefined;
    out.push(
      ranged
        ? Sql.sql`EXISTS (SELECT 1 FROM "RunScore" sc WHERE sc."runId" = r."id" AND sc."evaluatorName" = ${f.evaluator} AND sc."score" >= ${f.minScore ?? 0} AND sc."score" <= ${f.maxScore ?? 1})`
        : Sql.sql`EXISTS (SELECT 1 FROM "RunScore" sc WHERE sc."runId" = r."id" AND sc."evaluatorName" = ${f.evaluator})`,
    );
  }
  if (f.startedFrom) out.push(Sql.sql`r."startedAt" >= ${f.startedFrom}`);
  if (f.startedBefore) out.push(Sql.sql`r."startedAt" < ${f.startedBefore}`);
  return out;
}

export interface TextPageQuery {
  filters: RunFilters;
  /** Normalised, non-empty search text. */
  text: string;
  /** A validated sort column (RUN_SORT_KEYS) and direction. */
  sort: { key: string; dir: 'asc' | 'desc' };
  /** `known`: a cost sort's cursor row has a known cost (see runs-list.ts: unknown costs sort last). */
  cursor: { value: Date | number | bigint; known?: boolean; id: string } | null;
  take: number;
}

/** Ids of one page of text-matching runs, in sort order (keyset after `cursor`). */
export async function textSearchPageIds(db: Database, q: TextPageQuery): Promise<string[]> {
  const text = textMatchSql(db, q.text, await isCommon(db, q.text));
  const where = [...filterConditions(q.filters), text.condition];
  const column = Sql.raw(`r."${q.sort.key}"`);
  const dir = Sql.raw(q.sort.dir === 'desc' ? 'DESC' : 'ASC');
  const byCost = q.sort.key === 'costUsd';
  if (q.cursor) {
    const op = Sql.raw(q.sort.dir === 'desc' ? '<' : '>');
    const { value, id, known } = q.cursor;
    const after = Sql.sql`(${column} ${op} ${value} OR (${column} = ${value} AND r."id" ${op} ${id}))`;
    // By cost, every known cost comes before any unknown one, in both directions.
    if (byCost && known === true) where.push(Sql.sql`((r."costKnown" = TRUE AND ${after}) OR r."costKnown" = FALSE)`);
    else if (byCost && known === false) where.push(Sql.sql`(r."costKnown" = FALSE AND ${after})`);
    else where.push(after);
  }
  const known = Sql.raw(byCost ? 'r."costKnown" DESC, ' : '');
  const rows = await serialQuery<{ id: string }>(
    db,
    Sql.sql`${text.with}SELECT r."id" FROM "Run" r WHERE ${Sql.join(where, ' AND ')}
    ORDER BY ${known}${column} ${dir}, r."id" ${dir} LIMIT ${q.take}`,
  );
  return rows.map((r) => r.id);
}

/**
 * A text search's statement, on PostgreSQL without parallel workers. Both of its plans stop early (a
 * page, or the count's cap), and a Gather over two workers makes each walk its own share of the sort
 * index or of the trigram bitmap until the leader has enough: at a million runs the first page of a
 * common text probed 9,300 search rows instead of 4,400 and took 0.8-1.3 s where one process takes
 * 45-300 ms, and the capped count 330-520 ms against 85-105 ms. SET LOCAL ends with the transaction.
 */
export async function serialQuery<T>(db: Database, statement: ReturnType<typeof Sql.sql>): Promise<T[]> {
  if (db.provider === 'sqlite') return db.prisma.$queryRaw<T[]>(statement);
  const [, rows] = await db.prisma.$transaction([db.prisma.$executeRaw`SET LOCAL max_parallel_workers_per_gather = 0`, db.prisma.$queryRaw<T[]>(statement)]);
  return rows;
}

/**
 * How many runs match a text search, counting at most `cap + 1`. On SQLite the FTS5 hits drive the
 * count (they arrive incrementally, so a common text stops at the cap; CROSS JOIN keeps that order).
 */
export async function textSearchCount(db: Database, filters: RunFilters, text: string, cap: number): Promise<number> {
  let rows: Array<{ n: number | bigint }>;
  if (db.provider === 'sqlite') {
    const where = Sql.join([Sql.sql`"RunSearchFts" MATCH ${ftsPhrase(text)}`, ...filterConditions(filters)], ' AND ');
    rows = await db.prisma.$queryRaw`SELECT count(*) AS "n" FROM (SELECT 1 FROM "RunSearchFts" CROSS JOIN "RunSearch" s CROSS JOIN "Run" r
      WHERE s."seq" = "RunSearchFts"."rowid" AND r."id" = s."runId" AND ${where} LIMIT ${cap + 1}) AS "hits"`;
  } else {
    const match = textMatchSql(db, text, await isCommon(db, text));
    const where = Sql.join([...filterConditions(filters), match.condition], ' AND ');
    rows = await serialQuery(db, Sql.sql`${match.with}SELECT count(*) AS "n" FROM (SELECT 1 FROM "Run" r WHERE ${where} LIMIT ${cap + 1}) AS "counted"`);
  }
  return Number(rows[0]?.n ?? 0);
}

/**
 * How many runs match `filters` (no text), counting at most `cap + 1`: one statement with no order,
 * so the runs page's count of a tenant's runs, or of one setting's, reads the index of those columns
 * (Run(tenant, setting, startedAt, id), …) and never a row of Run.
 */
export async function filteredRunCount(db: Database, filters: RunFilters, cap: number): Promise<number> {
  const where = filterConditions(filters);
  const condition = where.length ? Sql.join(where, ' AND ') : Sql.sql`TRUE`;
  const rows = await db.prisma.$queryRaw<Array<{ n: number | bigint }>>`SELECT count(*) AS "n" FROM (SELECT 1 FROM "Run" r WHERE ${condition} LIMIT ${cap + 1}) AS "counted"`;
  return Number(rows[0]?.n ?? 0);
}

/** Where `text` matched in each of these runs (for the runs table's snippets). */
export async function textMatches(db: Database, runIds: string[], raw: string | undefined): Promise<Map<string, RunTextMatch>> {
  const text = normaliseSearchText(raw);
  const out = new Map<string, RunTextMatch>();
  if (!text || runIds.length === 0) return out;
  const rows = await db.prisma.runSearch.findMany({ where: { runId: { in: runIds } }, select: { runId: true, body: true } });
  for (const row of rows) {
    const match = findMatch(row.body, text);
    if (match) out.set(row.runId, match);
  }
  return out;
}
