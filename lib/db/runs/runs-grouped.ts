import 'server-only';
/**
 * The runs table grouped by suite: runs outside any suite stay rows, and each suite with matching
 * runs is one row (its matching-run count), merged in date order. One keyset cursor (date, id)
 * pages both streams, since run and suite ids are distinct: a suite of 122 runs costs one row.
 */
import { z } from 'zod';
import type { Prisma as P } from '../generated/sqlite/client';
import { getDb, type Database } from '../core';
import { InvalidInputError } from '../core';
import { RUN_LIST_SELECT, toRunListItem } from './run-dto';
import { MAX_RUN_PAGE, runWhere } from './runs-list';
import { parseRunFilters, type RunFilters } from './run-filters';
import type { RunListItem } from './types';

/** A suite as one row of the grouped runs table. */
export interface SuiteGroupRow {
  id: string;
  kind: string;
  status: string;
  datasetName: string;
  createdAt: string;
  /** Its runs that match the filters. */
  runs: number;
}

export type GroupedRow = { kind: 'run'; run: RunListItem } | { kind: 'suite'; suite: SuiteGroupRow };

export interface GroupedRunPage {
  rows: GroupedRow[];
  nextCursor: string | null;
}

const CursorSchema = z.object({ t: z.string(), id: z.string() });

function encodeCursor(time: Date, id: string): string {
  return Buffer.from(JSON.stringify({ t: time.toISOString(), id })).toString('base64url');
}

function decodeCursor(cursor: string): { time: Date; id: string } {
  let raw: unknown = null;
  try {
    raw = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    raw = null;
  }
  const parsed = CursorSchema.safeParse(raw);
  const time = parsed.success ? new Date(parsed.data.t) : null;
  if (!parsed.success || !time || Number.isNaN(time.getTime())) throw new InvalidInputError('cursor', 'cursor is malformed or belongs to another view');
  return { time, id: parsed.data.id };
}

/**
 * One page of the grouped table in date order (`dir`). Text search is not grouped (its rows say
 * where each run matched), so a text filter is refused naming it; so is a suite filter, which
 * already shows one suite's runs.
 */
export async function listRunsGrouped(
  options: { filters?: RunFilters; dir?: 'asc' | 'desc'; cursor?: string | null; limit?: number },
  db: Database = getDb(),
): Promise<GroupedRunPage> {
  const f = parseRunFilters(options.filters ?? {});
  if (f.text?.trim()) throw new InvalidInputError('text', 'search results are listed run by run, not grouped by suite');
  if (f.suiteRunId) throw new InvalidInputError('suiteRunId', 'one suite’s runs are not grouped by suite');
  const dir = options.dir ?? 'desc';
  const limit = Math.min(Math.max(Math.trunc(options.limit ?? 50), 1), MAX_RUN_PAGE);
  const op = dir === 'desc' ? 'lt' : 'gt';
  const after = options.cursor ? decodeCursor(options.cursor) : null;
  const where = runWhere(f);

  const runAnd: P.RunWhereInput[] = [where, { suiteRunId: null }];
  const suiteAnd: P.SuiteRunWhereInput[] = [{ runs: { some: where } }];
  if (f.tenant !== undefined) suiteAnd.push({ tenant: f.tenant });
  if (after) {
    runAnd.push({ OR: [{ startedAt: { [op]: after.time } }, { startedAt: after.time, id: { [op]: after.id } }] });
    suiteAnd.push({ OR: [{ createdAt: { [op]: after.time } }, { createdAt: after.time, id: { [op]: after.id } }] });
  }
  const [runs, suites] = await Promise.all([
    db.prisma.run.findMany({ where: { AND: runAnd }, orderBy: [{ startedAt: dir }, { id: dir }], take: limit + 1, select: RUN_LIST_SELECT }),
    db.prisma.suiteRun.findMany({
      where: { AND: suiteAnd },
      orderBy: [{ createdAt: dir }, { id: dir }],
      take: limit + 1,
      select: { id: true, kind: true, status: true, datasetName: true, createdAt: true },
    }),
  ]);

  type Keyed = { time: Date; id: string; row: () => GroupedRow };
  const keyed: Keyed[] = [
    ...runs.map((r) => ({ time: r.startedAt, id: r.id, row: (): GroupedRow => ({ kind: 'run', run: toRunListItem(r) }) })),
    ...suites.map((s) => ({
      time: s.createdAt,
      id: s.id,
      row: (): GroupedRow => ({ kind: 'suite', suite: { ...s, createdAt: s.createdAt.toISOString(), runs: 0 } }),
    })),
  ];
  const sign = dir === 'desc' ? -1 : 1;
  keyed.sort((a, b) => sign * (a.time.getTime() - b.time.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)));
  const page = keyed.slice(0, limit);
  const rows = page.map((k) => k.row());

  const suiteIds = rows.flatMap((r) => (r.kind === 'suite' ? [r.suite.id] : []));
  if (suiteIds.length) {
    const counts = await db.prisma.run.groupBy({ by: ['suiteRunId'], where: { AND: [where, { suiteRunId: { in: suiteIds } }] }, _count: { _all: true } });
    const bySuite = new Map(counts.map((c) => [c.suiteRunId, c._count._all]));
    for (const r of rows) if (r.kind === 'suite') r.suite.runs = bySuite.get(r.suite.id) ?? 0;
  }
  const last = page[page.length - 1];
  return { rows, nextCursor: keyed.length > limit && last ? encodeCursor(last.time, last.id) : null };
}
