/** GET one stored run as a `stockroom.run/v1` JSON download (what `stockroom import` reads back). */
import { safeRoute } from '@/lib/actions/safe-route';
import { SuiteQuerySchema } from '@/lib/schemas/api-queries';
import { exportRunFile } from '@/lib/transfer/export-runs';
import { requireRunInTenant } from '@/lib/db/tenant-scope';

export const GET = safeRoute({
  name: 'exportRun',
  schema: SuiteQuerySchema,
  role: 'viewer',
  handler: async ({ id }, { principal }) => {
    // Another tenant's run is answered exactly like a missing one.
    await requireRunInTenant(id, principal.tenant);
    const file = await exportRunFile(id);
    return new Response(JSON.stringify(file, null, 2) + '\n', {
      headers: {
        'content-type': 'application/json; charset=utf-8',
        'content-disposition': `attachment; filename="run-${id}.json"`,
        'cache-control': 'no-store',
      },
    });
  },
});
