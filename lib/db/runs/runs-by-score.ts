import 'server-only';
/**
 * The runs table sorted by one online evaluator's score (issue 37): keyset pages over the scores, on
 * their (tenant, evaluator, score) index, with the runs table's other filters applied to each score's
 * run. Runs the evaluator gave no score (null, or none at all) are not in this order.
 */
import { z } from 'zod';
import { getDb, type Database } from '../core';
import { InvalidInputError } from '../core';
import { RUN_LIST_SELECT, toRunListItem } from './run-dto';
import { parseRunFilters, type RunFilters } from './run-filters';
import { MAX_RUN_PAGE, runWhere, type RunPage } from './runs-list';

const CursorSchema = z.object({ k: z.literal('score'), d: z.enum(['asc', 'desc']), s: z.number(), id: z.string() });

export interface ScoreSortOptions {
  filters: RunFilters;
  dir: 'asc' | 'desc';
  cursor?: string | null;
  limit?: number;
}

/** One page of runs by the score of `filters.evaluator` (required), then by run id. */
export async function listRunsByScore(options: ScoreSortOptions, db: Database = getDb()): Promise<RunPage> {
  const filters = parseRunFilters(options.filters);
  if (!filters.evaluator) throw new InvalidInputError('sort', 'choose an evaluator to sort by its score');
  if (filters.text) throw new InvalidInputError('sort', 'a text search is listed by date, not by score');
  if (filters.tenant === undefined) throw new InvalidInputError('tenant', 'sorting by score needs the tenant');
  const limit = Math.min(Math.max(Math.trunc(options.limit ?? 50), 1), MAX_RUN_PAGE);
  const dir = options.dir;
  let after = {};
  if (options.cursor) {
    let raw: unknown = null;
    try {
      raw = JSON.parse(Buffer.from(options.cursor, 'base64url').toString('utf8'));
    } catch {
      raw = null;
    }
    const c = CursorSchema.safeParse(raw);
    if (!c.success || c.data.d !== dir) throw new InvalidInputError('cursor', 'cursor is malformed or belongs to another sort order');
    const op = dir === 'desc' ? 'lt' : 'gt';
    after = { OR: [{ score: { [op]: c.data.s } }, { score: c.data.s, runId: { [op]: c.data.id } }] };
  }
  const { evaluator, minScore, maxScore, ...rest } = filters;
  const scores = await db.prisma.runScore.findMany({
    where: {
      AND: [
        { tenant: filters.tenant, evaluatorName: evaluator, score: { not: null, gte: minScore ?? 0, lte: maxScore ?? 1 } },
        { run: runWhere(rest) },
        after,
      ],
    },
    orderBy: [{ score: dir }, { runId: dir }],
    take: limit + 1,
    select: { runId: true, score: true },
  });
  const page = scores.slice(0, limit);
  const found = new Map((await db.prisma.run.findMany({ where: { id: { in: page.map((s) => s.runId) } }, select: RUN_LIST_SELECT })).map((r) => [r.id, r]));
  const last = page[page.length - 1];
  return {
    items: page.flatMap((s) => {
      const row = found.get(s.runId);
      return row ? [toRunListItem(row)] : [];
    }),
    nextCursor: scores.length > limit && last ? Buffer.from(JSON.stringify({ k: 'score', d: dir, s: last.score, id: last.runId })).toString('base64url') : null,
  };
}
