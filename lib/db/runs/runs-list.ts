import 'server-only';
/**
 * The runs table: filters, sort and keyset (cursor) pagination. A page is "rows after (value, id)"
 * on an index of (sort column, id), so page 1,000 costs what page 1 costs with 100,000 runs.
 * Sorted by cost, runs whose cost is unknown (`costKnown` false, stored as 0) come after every priced
 * run in both directions: the key is (costKnown desc, costUsd, id) on an index of the same columns.
 */
import { z } from 'zod';
import type { Prisma as P } from '../generated/sqlite/client';
import { getDb, type Database } from '../core';
import { InvalidInputError } from '../core';
import { RUN_LIST_SELECT, toRunListItem } from './run-dto';
import { filteredRunCount, textMatches, textSearchCount, textSearchPageIds } from './run-text-search';
import { parseRunFilters, type RunFilters } from './run-filters';
import { normaliseSearchText } from './run-search';
import type { RunListItem } from './types';

export const RUN_SORT_KEYS = ['startedAt', 'durationMs', 'totalTokens', 'costUsd', 'steps'] as const;
export type RunSortKey = (typeof RUN_SORT_KEYS)[number];

/** Largest page `listRuns` returns. */
export const MAX_RUN_PAGE = 200;
/** `countRuns` stops counting here and reports a lower bound: counting is O(rows). */
export const COUNT_CAP = 10_000;
/**
 * A text search counts to this many (then "1,000+"): past it each further match costs a substring
 * test of a row on PostgreSQL, and what a reader wants of a common text is its newest matches.
 */
export const TEXT_COUNT_CAP = 1_000;

export interface RunSort {
  key: RunSortKey;
  dir: 'asc' | 'desc';
}

export const DEFAULT_RUN_SORT: RunSort = { key: 'startedAt', dir: 'desc' };

export interface ListRunsOptions {
  filters?: RunFilters;
  sort?: RunSort;
  /** The `nextCursor` of the previous page; it is only valid with the same sort. */
  cursor?: string | null;
  limit?: number;
}

export interface RunPage {
  items: RunListItem[];
  nextCursor: string | null;
}

/** `kn`: a cost sort's cursor row has a known cost (unknown costs sort after every known one). */
const CursorSchema = z.object({ k: z.enum(RUN_SORT_KEYS), d: z.enum(['asc', 'desc']), v: z.union([z.string(), z.number()]), kn: z.boolean().optional(), id: z.string() });

/** Where a page ends: the last row's sort value and id, and for a cost sort whether its cost is known. */
export interface RunCursor {
  value: Date | number | bigint;
  /** Set for a cost sort only. */
  known?: boolean;
  id: string;
}

function encodeCursor(sort: RunSort, row: { id: string; costKnown: boolean } & Record<RunSortKey, unknown>): string {
  const value = row[sort.key];
  const v = value instanceof Date ? value.toISOString() : typeof value === 'bigint' ? value.toString() : (value as number);
  const kn = sort.key === 'costUsd' ? row.costKnown : undefined;
  return Buffer.from(JSON.stringify({ k: sort.key, d: sort.dir, v, kn, id: row.id })).toString('base64url');
}

function decodeCursor(cursor: string, sort: RunSort): RunCursor {
  let raw: unknown;
  try {
    raw = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    raw = null;
  }
  const parsed = CursorSchema.safeParse(raw);
  if (!parsed.success || parsed.data.k !== sort.key || parsed.data.d !== sort.dir)
    throw new InvalidInputError('cursor', 'cursor is malformed or belongs to another sort order');
  const { v, id, kn } = parsed.data;
  if ((sort.key === 'costUsd') !== (kn !== undefined)) throw new InvalidInputError('cursor', 'cursor is malformed or belongs to another sort order');
  if (sort.key === 'startedAt') {
    const date = new Date(String(v));
    if (Number.isNaN(date.getTime())) throw new InvalidInputError('cursor', 'cursor date is invalid');
    return { value: date, id };
  }
  if (sort.key === 'totalTokens') {
    if (!/^-?\d+$/.test(String(v))) throw new InvalidInputError('cursor', 'cursor value is invalid');
    return { value: BigInt(String(v)), id };
  }
  if (typeof v !== 'number') throw new InvalidInputError('cursor', 'cursor value is invalid');
  return kn === undefined ? { value: v, id } : { value: v, known: kn, id };
}

/** The order of a sort: its column then id; a cost sort puts every known cost before any unknown one. */
function orderOf(sort: RunSort): P.RunOrderByWithRelationInput[] {
  const byValue: P.RunOrderByWithRelationInput[] = [{ [sort.key]: sort.dir }, { id: sort.dir }];
  return sort.key === 'costUsd' ? [{ costKnown: 'desc' }, ...byValue] : byValue;
}

/** The rows after `cursor` in the order of `sort` (see orderOf). */
function afterCursor(sort: RunSort, cursor: RunCursor): P.RunWhereInput {
  const op = sort.dir === 'desc' ? 'lt' : 'gt';
  const after: P.RunWhereInput = { OR: [{ [sort.key]: { [op]: cursor.value } }, { [sort.key]: cursor.value, id: { [op]: cursor.id } }] };
  if (cursor.known === undefined) return after;
  // Within the cursor's group (known or unknown cost) by value; every unknown cost comes after a known one.
  return cursor.known ? { OR: [{ costKnown: true, ...after }, { costKnown: false }] } : { costKnown: false, ...after };
}

/**
 * The Prisma `where` of a filter set without its text (shared by list and count); a text filter is
 * matched through the search index by run-text-search.ts, which compiles these same filters to SQL.
 */
export function runWhere(filters: RunFilters): P.RunWhereInput {
  const f = parseRunFilters(filters);
  const and: P.RunWhereInput[] = [];
  if (f.tenant !== undefined) and.push({ tenant: f.tenant });
  if (f.datasetName) and.push({ datasetName: f.datasetName });
  if (f.setting) and.push({ setting: f.setting });
  if (f.category) and.push({ category: f.category });
  if (f.terminationReason) and.push({ terminationReason: f.terminationReason });
  if (f.caseId) and.push({ caseId: f.caseId });
  if (f.suiteRunId) and.push({ suiteRunId: f.suiteRunId });
  if (f.transport) and.push({ transport: f.transport });
  if (f.status) and.push({ status: f.status });
  if (f.source) and.push({ source: f.source });
  if (f.modelId) and.push({ modelId: f.modelId });
  if (f.sessionId) and.push({ sessionId: f.sessionId });
  if (f.traceUserId) and.push({ traceUserId: f.traceUserId });
  if (f.guard) and.push({ guardsOn: { some: { guard: f.guard } } });
  if (f.agent) and.push({ agents: { some: { name: f.agent } } });
  if (f.tag) and.push({ tags: { some: { tag: f.tag } } });
  if (f.minAgents !== undefined) and.push({ agentCount: { gte: f.minAgents } });
  for (const flag of new Set(f.flags ?? [])) and.push({ flags: { some: { flag } } });
  if (f.labelled === 'yes') and.push({ labels: { some: {} } });
  if (f.labelled === 'no') and.push({ labels: { none: {} } });
  if (f.label) and.push({ labels: { some: { OR: [{ verdict: f.label }, { category: f.label }] } } });
  if (f.toolError) and.push({ toolErrorCount: { gt: 0 } });
  if (f.tainted) and.push({ taintedStep: { not: null } });
  if (f.minDurationMs !== undefined) and.push({ durationMs: { gt: f.minDurationMs } });
  if (f.minCostUsd !== undefined) and.push({ costKnown: true, costUsd: { gt: f.minCostUsd } });
  if (f.evaluator) and.push({ scores: { some: { evaluatorName: f.evaluator, ...(f.minScore !== undefined || f.maxScore !== undefined ? { score: { gte: f.minScore ?? 0, lte: f.maxScore ?? 1 } } : {}) } } });
  if (f.startedFrom) and.push({ startedAt: { gte: f.startedFrom } });
  if (f.startedBefore) and.push({ startedAt: { lt: f.startedBefore } });
  return and.length ? { AND: and } : {};
}

/** One page of runs, newest first by default; `nextCursor` is null on the last page. */
export async function listRuns(options: ListRunsOptions = {}, db: Database = getDb()): Promise<RunPage> {
  const sort = options.sort ?? DEFAULT_RUN_SORT;
  if (!RUN_SORT_KEYS.includes(sort.key)) throw new InvalidInputError('sort', `unknown sort key '${String(sort.key)}'`);
  const limit = Math.min(Math.max(Math.trunc(options.limit ?? 50), 1), MAX_RUN_PAGE);
  const filters = parseRunFilters(options.filters ?? {});
  const cursor = options.cursor ? decodeCursor(options.cursor, sort) : null;
  const text = normaliseSearchText(filters.text);
  let rows;
  if (text) {
    const ids = await textSearchPageIds(db, { filters, text, sort, cursor, take: limit + 1 });
    const found = new Map((await db.prisma.run.findMany({ where: { id: { in: ids } }, select: RUN_LIST_SELECT })).map((r) => [r.id, r]));
    rows = ids.flatMap((id) => found.get(id) ?? []);
  } else {
    const and: P.RunWhereInput[] = [runWhere(filters)];
    if (cursor) and.push(afterCursor(sort, cursor));
    rows = await db.prisma.run.findMany({
      where: { AND: and },
      orderBy: orderOf(sort),
      take: limit + 1,
      select: RUN_LIST_SELECT,
    });
  }
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  const matches = await textMatches(db, page.map((r) => r.id), text);
  return {
    items: page.map((row) => {
      const item = toRunListItem(row);
      const match = matches.get(row.id);
      return match ? { ...item, match } : item;
    }),
    nextCursor: rows.length > limit && last ? encodeCursor(sort, last) : null,
  };
}

/**
 * How many runs match. Counting stops at `cap` (default COUNT_CAP): past it the UI shows "10,000+"
 * instead of paying a full scan on every page view. One SQL statement either way (run-text-search.ts
 * compiles the same filters as runWhere), so the count is read from an index where one covers them.
 */
export async function countRuns(
  filters: RunFilters = {},
  options: { cap?: number } = {},
  db: Database = getDb(),
): Promise<{ count: number; exact: boolean }> {
  const f = parseRunFilters(filters);
  const text = normaliseSearchText(f.text);
  const cap = options.cap ?? (text ? TEXT_COUNT_CAP : COUNT_CAP);
  const count = text ? await textSearchCount(db, f, text, cap) : await filteredRunCount(db, f, cap);
  return count > cap ? { count: cap, exact: false } : { count, exact: true };
}

/** The model ids of a tenant's stored runs (the runs page's model filter), sorted. */
export async function listRunModelIds(tenant: string, db: Database = getDb()): Promise<string[]> {
  // One probe of the (tenant, modelId) index per distinct model, each the next one after the last
  // (a loose index scan): GROUP BY read the index entry of every run of the tenant on every page view.
  const rows = await db.prisma.$queryRaw<Array<{ modelId: string }>>`WITH RECURSIVE "models"("modelId") AS (
      SELECT (SELECT "modelId" FROM "Run" WHERE "tenant" = ${tenant} ORDER BY "modelId" LIMIT 1)
      UNION ALL
      SELECT (SELECT r."modelId" FROM "Run" r WHERE r."tenant" = ${tenant} AND r."modelId" > m."modelId" ORDER BY r."modelId" LIMIT 1)
      FROM "models" m WHERE m."modelId" IS NOT NULL
    ) SELECT "modelId" FROM "models" WHERE "modelId" IS NOT NULL`;
  return rows.map((r) => r.modelId);
}

/** Most runs the session view lists. */
export const SESSION_RUNS_LIMIT = 500;

/**
 * The runs of one imported session (`session.id`) of a tenant, in the order they started: the
 * session view. Another tenant's session is simply empty.
 */
export async function listSessionRuns(tenant: string, sessionId: string, db: Database = getDb()): Promise<RunPage> {
  return listRuns({ filters: { tenant, sessionId }, sort: { key: 'startedAt', dir: 'asc' }, limit: SESSION_RUNS_LIMIT }, db);
}
