/** GET a suite (eval or matrix) as `stockroom.suite/v1` JSONL, streamed one run per line. */
import { safeRoute } from '@/lib/boundary/safe-route';
import { SuiteQuerySchema } from '@/lib/schemas/api-queries';
import { linesToStream, suiteJsonl } from '@/lib/transfer/export-runs';

export const GET = safeRoute({
  name: 'exportSuite',
  schema: SuiteQuerySchema,
  role: 'viewer',
  handler: async ({ id }, { principal }) =>
    new Response(linesToStream(await suiteJsonl(id, principal.tenant)), {
      headers: {
        'content-type': 'application/x-ndjson; charset=utf-8',
        'content-disposition': `attachment; filename="suite-${id}.jsonl"`,
        'cache-control': 'no-store',
      },
    }),
});
