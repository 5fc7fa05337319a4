/** GET a suite or matrix run with its progress, per-setting metrics, cost and running cases (the pages poll this). */
import { safeRoute } from '@/lib/actions/safe-route';
import { pendingJobs } from '@/lib/actions/support/jobs';
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
    // Cost so far and the cases running now (a live model's runs are stored as they go).
    return { suite: await getSuiteRunOrThrow(id), pendingJobs: pendingJobs(), ...(await getSuiteLive(id)) };
  },
});
