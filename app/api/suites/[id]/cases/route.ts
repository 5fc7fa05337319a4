/** GET the per-case scores of a suite run, every epoch of each case (instructor mode compares two suites case by case, over the epochs). */
import { safeRoute } from '@/lib/boundary/safe-route';
import { getSuiteCases } from '@/lib/db/suites/suites';
import { requireSuiteInTenant } from '@/lib/db/governance/tenant-scope';
import { SuiteQuerySchema } from '@/lib/schemas/api-queries';

export const GET = safeRoute({
  name: 'suiteCases',
  schema: SuiteQuerySchema,
  role: 'viewer',
  handler: async ({ id }, { principal }) => {
    await requireSuiteInTenant(id, principal.tenant);
    return { cases: await getSuiteCases(id, undefined, undefined, { allEpochs: true }) };
  },
});
