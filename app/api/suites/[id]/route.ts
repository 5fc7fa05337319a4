/** GET a suite or matrix run with its progress (counted from stored cases, with an estimate) and per-setting metrics (the pages poll this). */
import { safeRoute } from '@/lib/actions/safe-route';
import { getSuiteProgress } from '@/lib/db/suite-jobs';
import { getSuiteRunOrThrow } from '@/lib/db/suites';
import { requireSuiteInTenant } from '@/lib/db/tenant-scope';
import { SuiteQuerySchema } from '@/lib/schemas/api-queries';

export const GET = safeRoute({
  name: 'suiteRun',
  schema: SuiteQuerySchema,
  role: 'viewer',
  handler: async ({ id }, { principal }) => {
    await requireSuiteInTenant(id, principal.tenant);
    return { suite: await getSuiteRunOrThrow(id), progress: await getSuiteProgress(id) };
  },
});
