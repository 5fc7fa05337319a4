/** GET a suite or matrix run with its progress (counted from stored cases, with an estimate), per-setting metrics, cost and running cases (the pages poll this). */
import { safeRoute } from '@/lib/boundary/safe-route';
import { getSuiteProgress } from '@/lib/db/suite-jobs';
import { getSuiteRunOrThrow } from '@/lib/db/suites';
import { requireSuiteInTenant } from '@/lib/db/tenant-scope';
import { SuiteQuerySchema } from '@/lib/schemas/api-queries';
import { getSuiteLive } from '@/lib/db/suite-live';

export const GET = safeRoute({
  name: 'suiteRun',
  schema: SuiteQuerySchema,
  role: 'viewer',
  handler: async ({ id }, { principal }) => {
    await requireSuiteInTenant(id, principal.tenant);
    // Progress counted from stored cases; cost so far and the cases running now.
    return { suite: await getSuiteRunOrThrow(id), progress: await getSuiteProgress(id), ...(await getSuiteLive(id)) };
  },
});
