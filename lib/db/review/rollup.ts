import 'server-only';
/**
 * The hourly rollup behind the dashboards (issue 37): finished runs counted per tenant, UTC hour and
 * dimension as the watch job takes them off the outbox, in the transaction that does, so a chart
 * reads a few hundred rows whatever the number of runs. Latency is a histogram of fixed log buckets
 * (lib/charts/latency-histogram.ts), evaluator scores a sum and a count.
 */
import { insertAll } from '../core';
import { getDb, type Database } from '../core';
import { Prisma as Sql } from '../generated/sqlite/client';

/**
 * Rollup dimensions: every run once under `all`, then by model, source, each of its agents and each of
 * its tags (a run with two tags counts under both: a tag's series are its runs, and the tags of a point
 * need not add up to its runs). Runs rolled up before they could carry tags are under no tag.
 */
export const ROLLUP_DIMS = ['all', 'model', 'source', 'agent', 'tag'] as const;
export type RollupDim = (typeof ROLLUP_DIMS)[number];

interface Key {
  tenant: string;
  hour: Date;
  dim: string;
  value: string;
}
export interface HourDelta extends Key {
  termination: string;
  runs: number;
  inputTokens: number;
  outputTokens: number;
  unreportedCalls: number;
  costUsd: number;
  costUnknownRuns: number;
  guardrailFindings: number;
}
export interface LatencyDelta extends Key {
  bucket: number;
  count: number;
}
export interface ScoreDelta extends Key {
  evaluator: string;
  sum: number;
  count: number;
}
export interface RollupDeltas {
  hours: HourDelta[];
  latency: LatencyDelta[];
  scores: ScoreDelta[];
}

/** The order every drain writes rollup rows in (tenant, hour, dimension, value, then the row's own key). */
const byKey = <T extends Key>(own: (row: T) => string | number) => (a: T, b: T) =>
  a.tenant.localeCompare(b.tenant) || a.hour.getTime() - b.hour.getTime() || a.dim.localeCompare(b.dim) || a.value.localeCompare(b.value) || String(own(a)).localeCompare(String(own(b)));

/** Deltas of the same row summed into one (an INSERT … ON CONFLICT DO UPDATE may touch a row once). */
function merged<T extends Key>(rows: readonly T[], own: (row: T) => string | number): T[] {
  const out = new Map<string, T>();
  for (const r of rows) {
    const k = `${r.tenant}|${r.hour.getTime()}|${r.dim}|${r.value}|${own(r)}`;
    const seen = out.get(k);
    if (!seen) {
      out.set(k, { ...r });
      continue;
    }
    const sum = seen as unknown as Record<string, number>;
    for (const [field, v] of Object.entries(r)) if (typeof v === 'number' && field !== 'bucket') sum[field] = sum[field]! + v;
  }
  return [...out.values()];
}

/**
 * Adds deltas (negative ones take back a rebuilt run's old contribution) inside the caller's
 * transaction: one multi-row INSERT … ON CONFLICT DO UPDATE that adds per table, its rows in key
 * order. Drains completing at once touch the same hours; taken in the order their runs came, two of
 * them held up by a lock deadlocked (PostgreSQL aborted one, whose runs then waited out their claim:
 * lib/watch/watch-faults-pg.test.ts). In one order, the later one waits for the earlier one's commit.
 */
export async function applyRollup(txDb: Database, d: RollupDeltas): Promise<void> {
  const hours = merged(d.hours, (h) => h.termination).sort(byKey((h) => h.termination)).map((h) => ({ ...h, inputTokens: BigInt(h.inputTokens), outputTokens: BigInt(h.outputTokens) }));
  const latency = merged(d.latency, (l) => l.bucket).sort(byKey((l) => l.bucket));
  const scores = merged(d.scores, (s) => s.evaluator).sort(byKey((s) => s.evaluator));
  const key = ['tenant', 'hour', 'dim', 'value'];
  for (const statement of insertAll(txDb, [
    { table: 'RunHour', rows: hours, addOn: [...key, 'termination'] },
    { table: 'LatencyHour', rows: latency, addOn: [...key, 'bucket'] },
    { table: 'ScoreHour', rows: scores, addOn: [...key, 'evaluator'] },
  ]))
    await statement;
}

/**
 * What runs already added to the rollup (JSON), by run id: a rebuilt run takes its old part back
 * first. With `lock` (PostgreSQL), their rows are locked until the caller's transaction ends, in run
 * id order: a watch drain and a backfill completing the same run take turns, each reading what the
 * other wrote (SQLite has one writer at a time).
 */
export async function rolledContributions(txDb: Database, runIds: readonly string[], lock = false): Promise<Map<string, string>> {
  if (runIds.length === 0) return new Map();
  if (lock && txDb.provider === 'postgres') {
    const ids = [...new Set(runIds)].sort();
    const rows = await txDb.prisma.$queryRaw<Array<{ runId: string; contribution: string }>>`SELECT "runId", "contribution" FROM "RunRolled" WHERE "runId" IN (${Sql.join(ids)}) ORDER BY "runId" FOR UPDATE`;
    return new Map(rows.map((r) => [r.runId, r.contribution]));
  }
  const rows = await txDb.prisma.runRolled.findMany({ where: { runId: { in: [...runIds] } } });
  return new Map(rows.map((r) => [r.runId, r.contribution]));
}

/**
 * Records what each run added (replacing what it added before), updating a run's row in place. Deleted
 * and inserted again, a row another transaction waited to lock (rolledContributions) was gone when the
 * lock came free, and PostgreSQL's FOR UPDATE skips a deleted row without seeing its replacement: a
 * backfill that waited on a drain then read "never rolled up" and added the drain's runs a second time
 * (45 scores counted for 30 runs). An updated row is followed to its new version.
 */
export async function saveContributions(txDb: Database, rows: ReadonlyArray<{ runId: string; tenant: string; contribution: string }>): Promise<void> {
  if (rows.length === 0) return;
  // One row a run (the last given), in run id order: the order rolledContributions locks them in.
  const byRun = new Map(rows.map((r) => [r.runId, { runId: r.runId, tenant: r.tenant, contribution: r.contribution }]));
  const sorted = [...byRun.values()].sort((a, b) => (a.runId < b.runId ? -1 : a.runId > b.runId ? 1 : 0));
  for (const statement of insertAll(txDb, [{ table: 'RunRolled', rows: sorted, updateOn: 'runId' }])) await statement;
}

export interface RollupRows {
  hours: Array<{ hour: Date; value: string; termination: string; runs: number; inputTokens: number; outputTokens: number; unreportedCalls: number; costUsd: number; costUnknownRuns: number; guardrailFindings: number }>;
  latency: Array<{ hour: Date; value: string; bucket: number; count: number }>;
  scores: Array<{ hour: Date; value: string; evaluator: string; sum: number; count: number }>;
}

export interface RollupWindow {
  tenant: string;
  dim: RollupDim;
  from: Date;
  to: Date;
}

/** The `limit` values of a dimension with the most runs in the window (the series a chart draws). */
export async function topRollupValues(w: RollupWindow, limit: number, db: Database = getDb()): Promise<string[]> {
  const rows = await db.prisma.runHour.groupBy({
    by: ['value'],
    where: { tenant: w.tenant, dim: w.dim, hour: { gte: w.from, lt: w.to } },
    _sum: { runs: true },
    orderBy: [{ _sum: { runs: 'desc' } }, { value: 'asc' }],
    take: limit,
  });
  return rows.filter((r) => (r._sum.runs ?? 0) > 0).map((r) => r.value);
}

/** How far back the tag filter's suggestions look. */
const TAG_SUGGESTION_DAYS = 90;

/**
 * The tenant's busiest tags of the last TAG_SUGGESTION_DAYS (the runs list's tag suggestions), read
 * from the rollup's few rows rather than from every run's tags.
 */
export async function tagSuggestions(tenant: string, db: Database = getDb(), now: Date = new Date(), limit = 200): Promise<string[]> {
  const to = new Date(now.getTime() + 3_600_000);
  return topRollupValues({ tenant, dim: 'tag', from: new Date(to.getTime() - TAG_SUGGESTION_DAYS * 86_400_000), to }, limit, db);
}

/** The termination of a series row: summed over every termination (rollupRows with `series`). */
export const ANY_TERMINATION = '*';

/**
 * The rollup rows of a window and dimension (only `values`' when given): hours, latency buckets and
 * scores, one row per point (`step`) and value. With `series` (the chosen dimension's lines, whose
 * termination mix and scores the page does not draw: those come from `all`), the terminations are
 * summed (ANY_TERMINATION) and no scores are read. On PostgreSQL the database sums the hours of each
 * point and packs a point's latency buckets into one row (a week by model read 16,000 rows through
 * Prisma's model reads, 70–300 ms; summed, ~840); on SQLite the rows come as stored and are summed here.
 */
export async function rollupRows(w: RollupWindow, db: Database = getDb(), values?: readonly string[], step: 'hour' | 'day' = 'hour', options: { series?: boolean } = {}): Promise<RollupRows> {
  if (db.provider === 'postgres') return summedRowsPg(w, db, values, step, options.series === true);
  const where = { tenant: w.tenant, dim: w.dim, hour: { gte: w.from, lt: w.to }, ...(values ? { value: { in: [...values] } } : {}) };
  const [hours, latency, scores] = await Promise.all([
    db.prisma.runHour.findMany({
      where,
      select: { hour: true, value: true, termination: true, runs: true, inputTokens: true, outputTokens: true, unreportedCalls: true, costUsd: true, costUnknownRuns: true, guardrailFindings: true },
    }),
    db.prisma.latencyHour.findMany({ where, select: { hour: true, value: true, bucket: true, count: true } }),
    options.series ? [] : db.prisma.scoreHour.findMany({ where, select: { hour: true, value: true, evaluator: true, sum: true, count: true } }),
  ]);
  return {
    hours: hours.map((h) => ({ ...h, ...(options.series ? { termination: ANY_TERMINATION } : {}), inputTokens: Number(h.inputTokens), outputTokens: Number(h.outputTokens) })),
    latency,
    scores,
  };
}

async function summedRowsPg(w: RollupWindow, db: Database, values: readonly string[] | undefined, step: 'hour' | 'day', series: boolean): Promise<RollupRows> {
  const p = db.prisma;
  const only = values ? Sql.sql` AND "value" IN (${values.length > 0 ? Sql.join([...values]) : Sql.sql`NULL`})` : Sql.empty;
  const scope = Sql.sql`"tenant" = ${w.tenant} AND "dim" = ${w.dim} AND "hour" >= ${w.from} AND "hour" < ${w.to}${only}`;
  const point = Sql.raw(`date_trunc('${step}', "hour")`);
  const termination = series ? Sql.sql`${ANY_TERMINATION}::text` : Sql.raw('"termination"');
  const [hours, latency, scores] = await Promise.all([
    p.$queryRaw<Array<{ hour: Date; value: string; termination: string; runs: number; inputTokens: bigint; outputTokens: bigint; unreportedCalls: number; costUsd: number; costUnknownRuns: number; guardrailFindings: number }>>`
      SELECT ${point} AS "hour", "value", ${termination} AS "termination", SUM("runs")::int AS "runs", SUM("inputTokens")::bigint AS "inputTokens",
        SUM("outputTokens")::bigint AS "outputTokens", SUM("unreportedCalls")::int AS "unreportedCalls", SUM("costUsd")::float8 AS "costUsd",
        SUM("costUnknownRuns")::int AS "costUnknownRuns", SUM("guardrailFindings")::int AS "guardrailFindings"
      FROM "RunHour" WHERE ${scope} GROUP BY 1, 2, 3`,
    p.$queryRaw<Array<{ hour: Date; value: string; buckets: number[]; counts: number[] }>>`
      SELECT "hour", "value", array_agg("bucket" ORDER BY "bucket") AS "buckets", array_agg("count" ORDER BY "bucket") AS "counts"
      FROM (SELECT ${point} AS "hour", "value", "bucket", SUM("count")::int AS "count" FROM "LatencyHour" WHERE ${scope} GROUP BY 1, 2, 3) AS b GROUP BY 1, 2`,
    series
      ? []
      : p.$queryRaw<Array<{ hour: Date; value: string; evaluator: string; sum: number; count: number }>>`
      SELECT ${point} AS "hour", "value", "evaluator", SUM("sum")::float8 AS "sum", SUM("count")::int AS "count" FROM "ScoreHour" WHERE ${scope} GROUP BY 1, 2, 3`,
  ]);
  const date = (d: Date | string) => (d instanceof Date ? d : new Date(`${String(d).replace(' ', 'T')}${/Z|[+-]\d\d:?\d\d$/.test(String(d)) ? '' : 'Z'}`));
  return {
    hours: hours.map((h) => ({ ...h, hour: date(h.hour), inputTokens: Number(h.inputTokens), outputTokens: Number(h.outputTokens) })),
    latency: latency.flatMap((l) => {
      const hour = date(l.hour);
      return l.buckets.map((bucket, k) => ({ hour, value: l.value, bucket: Number(bucket), count: Number(l.counts[k]) }));
    }),
    scores: scores.map((x) => ({ ...x, hour: date(x.hour) })),
  };
}
