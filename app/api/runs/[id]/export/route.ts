/** GET one stored run as a `stockroom.run/v1` JSON download (what `stockroom import` reads back). */
import { safeRoute } from '@/lib/boundary/safe-route';
import { SuiteQuerySchema } from '@/lib/schemas/api-queries';
import { exportRunFile } from '@/lib/transfer/export-runs';

export const GET = safeRoute({
  name: 'exportRun',
  schema: SuiteQuerySchema,
  role: 'viewer',
  handler: async ({ id }, { principal }) => {
    const file = await exportRunFile(id, principal.tenant);
    return new Response(JSON.stringify(file, null, 2) + '\n', {
      headers: {
        'content-type': 'application/json; charset=utf-8',
        'content-disposition': `attachment; filename="run-${id}.json"`,
        'cache-control': 'no-store',
      },
    });
  },
});
