/** GET the runs table as CSV under the runs page's filters and sort (the same query string). */
import { safeRoute } from '@/lib/boundary/safe-route';
import { RunsQuerySchema, columnSortOf, runFiltersOf } from '@/lib/schemas/runs-query';
import { linesToStream, runsCsv } from '@/lib/transfer/export-runs';

export const GET = safeRoute({
  name: 'exportRunsCsv',
  schema: RunsQuerySchema,
  role: 'viewer',
  handler: async (query, { principal }) =>
    new Response(linesToStream(runsCsv(runFiltersOf(query, principal.tenant), columnSortOf(query))), {
      headers: {
        'content-type': 'text/csv; charset=utf-8',
        'content-disposition': 'attachment; filename="runs.csv"',
        'cache-control': 'no-store',
      },
    }),
});
