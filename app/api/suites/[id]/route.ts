/** GET a suite or matrix run with its progress (counted from stored cases, with an estimate), per-setting metrics (so far, while it works), cost and running cases (the pages poll this). */
import { safeRoute } from '@/lib/boundary/safe-route';
import { requireSuiteInTenant } from '@/lib/db/governance/tenant-scope';
import { SuitePollQuerySchema } from '@/lib/schemas/api-queries';
import { getSuitePoll } from '@/lib/db/suites/suite-poll';

export const GET = safeRoute({
  name: 'suiteRun',
  schema: SuitePollQuerySchema,
  role: 'viewer',
  handler: async ({ id, partial }, { principal }) => {
    await requireSuiteInTenant(id, principal.tenant);
    return getSuitePoll(id, principal.tenant, undefined, { partial: partial !== '0' });
  },
});
