/** GET the messages one model call of a run saw. */
import { safeRoute } from '@/lib/boundary/safe-route';
import { getModelInputAt } from '@/lib/db/runs/runs-read';
import { requireRunInTenant } from '@/lib/db/governance/tenant-scope';
import { ModelInputQuerySchema } from '@/lib/schemas/api-queries';

export const GET = safeRoute({
  name: 'modelInput',
  schema: ModelInputQuerySchema,
  role: 'viewer',
  handler: async ({ id, call }, { principal }) => {
    await requireRunInTenant(id, principal.tenant);
    return getModelInputAt(id, call);
  },
});
