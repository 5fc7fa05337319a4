/** GET a suite or matrix run with its progress and per-setting metrics (the pages poll this). */
import { safeRoute } from '@/lib/actions/safe-route';
import { ActionError } from '@/lib/actions/errors';
import { pendingJobs } from '@/lib/actions/support/jobs';
import { getSuiteRun } from '@/lib/db/suites';
import { SuiteQuerySchema } from '@/lib/schemas/api-queries';

export const GET = safeRoute({
  name: 'suiteRun',
  schema: SuiteQuerySchema,
  role: 'viewer',
  handler: async ({ id }) => {
    const suite = await getSuiteRun(id);
    if (!suite) throw new ActionError('not_found', 'That suite run does not exist.');
    return { suite, pendingJobs: pendingJobs() };
  },
});
