/** GET how far a run has got (status and step count): the replay of a running live run polls this. */
import { safeRoute } from '@/lib/boundary/safe-route';
import { getRunProgressOrThrow } from '@/lib/db/runs/run-progress';
import { requireRunInTenant } from '@/lib/db/governance/tenant-scope';
import { SuiteQuerySchema } from '@/lib/schemas/api-queries';

export const GET = safeRoute({
  name: 'runProgress',
  // `{ id }` only, like a suite's.
  schema: SuiteQuerySchema,
  role: 'viewer',
  handler: async ({ id }, { principal }) => {
    await requireRunInTenant(id, principal.tenant);
    return getRunProgressOrThrow(id);
  },
});
