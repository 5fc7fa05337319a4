import 'server-only';
/**
 * What the runs page shows for one query: a page of rows (grouped by suite when it can be), the count,
 * the filter form's options and, for the runs on the page, their approvals, labels and failed writes.
 * A bad filter or an out-of-date cursor is said, not thrown.
 */
import { countRuns, listRunModelIds, listRuns } from '@/lib/db/runs/runs-list';
import { listRunsGrouped, type GroupedRow } from '@/lib/db/runs/runs-grouped';
import { listRunsByScore } from '@/lib/db/runs/runs-by-score';
import { scoredEvaluatorNames, scoreSummaries } from '@/lib/db/review/run-scores';
import { tagSuggestions } from '@/lib/db/review/rollup';
import { InvalidInputError } from '@/lib/db/core/errors';
import { getDb } from '@/lib/db/core/client';
import { approvalsForRuns } from '@/lib/db/governance/governance-approvals';
import { currentLabelSet, labelSummaries } from '@/lib/db/review/labels';
import { failedWritesOfRuns, requestOutcomes } from '@/lib/runs/request-view';
import { groupingBlockedBy, runFiltersOf, type RunsQuery } from '@/lib/schemas/runs-query';
import { decidedRequests, runsOfRows } from '@/lib/charts/runs-list';

export type RunsPageData = Awaited<ReturnType<typeof loadRunsPage>>;

export async function loadRunsPage(query: RunsQuery, tenant: string) {
  const filters = runFiltersOf(query, tenant);
  let rows: GroupedRow[] = [];
  let nextCursor: string | null = null;
  let cursorError: string | null = null;
  let inputError: { field: string; message: string } | null = null;
  const groupBlocked = groupingBlockedBy(query);
  // The count, the model filter's options and the label set do not depend on the page of rows: asked
  // for at once, beside it (a bad filter makes the count throw what the list throws: no count then).
  const counting = countRuns(filters).catch((err: unknown) => {
    if (err instanceof InvalidInputError) return { count: 0, exact: true };
    throw err;
  });
  const beside = Promise.all([counting, listRunModelIds(tenant), currentLabelSet(tenant)]);
  beside.catch(() => {}); // awaited below; if the list throws first, its error is the one the page reports
  try {
    if (groupBlocked === null) {
      ({ rows, nextCursor } = await listRunsGrouped({ filters, dir: query.dir, cursor: query.cursor, limit: query.size }));
    } else {
      const page =
        query.sort === 'score'
          ? await listRunsByScore({ filters, dir: query.dir, cursor: query.cursor, limit: query.size })
          : await listRuns({ filters, sort: { key: query.sort, dir: query.dir }, cursor: query.cursor, limit: query.size });
      rows = page.items.map((run) => ({ kind: 'run', run }));
      nextCursor = page.nextCursor;
    }
  } catch (err) {
    if (!(err instanceof InvalidInputError)) throw err;
    if (err.field === 'cursor') cursorError = err.message;
    else inputError = { field: err.field, message: err.message };
  }
  const items = runsOfRows(rows);
  const [counted, models, labelSet] = await beside;
  const total = inputError ? { count: 0, exact: true } : counted;
  // Paused runs link to the request they wait for.
  const [waiting, labelled, failedWrites, scores, evaluators, tags] = await Promise.all([
    approvalsForRuns(getDb().prisma, items.filter((r) => r.status === 'paused').map((r) => r.id)),
    labelSummaries(tenant, items.map((r) => r.id)),
    failedWritesOfRuns(items.filter((r) => r.governed && r.status === 'finished').map((r) => r.id)),
    scoreSummaries(tenant, items.map((r) => r.id)),
    scoredEvaluatorNames(tenant),
    tagSuggestions(tenant),
  ]);
  // A paused run whose request was decided no longer waits for a reviewer: say where it is instead.
  const decided = await requestOutcomes(decidedRequests(waiting));
  return { rows, items, nextCursor, cursorError, inputError, groupBlocked, total, models, labelSet, waiting, labelled, failedWrites, decided, scores, evaluators, tags };
}
