/** GET the full result of one tool call (replay lists previews; this loads the whole payload on demand). */
import { safeRoute } from '@/lib/boundary/safe-route';
import { getToolResultAt } from '@/lib/db/runs/runs-read';
import { requireRunInTenant } from '@/lib/db/governance/tenant-scope';
import { ToolResultQuerySchema } from '@/lib/schemas/api-queries';

export const GET = safeRoute({
  name: 'toolResult',
  schema: ToolResultQuerySchema,
  role: 'viewer',
  handler: async ({ id, index }, { principal }) => {
    await requireRunInTenant(id, principal.tenant);
    return { result: await getToolResultAt(id, index) };
  },
});
