/** GET the cases whose score on a metric moved between `none` and a setting of a matrix run (over every epoch of each case). */
import { safeRoute } from '@/lib/boundary/safe-route';
import { ActionError } from '@/lib/boundary/errors';
import { getMatrixCasesThatMoved, BASELINE_SETTING } from '@/lib/db/suites/suites';
import { requireSuiteInTenant } from '@/lib/db/governance/tenant-scope';
import { caseMoved, caseScoreKey } from '@/lib/charts/matrix-view';
import { MovedCasesQuerySchema } from '@/lib/schemas/api-queries';

export const GET = safeRoute({
  name: 'movedCases',
  schema: MovedCasesQuerySchema,
  role: 'viewer',
  handler: async ({ id, setting, metric, category }, { principal }) => {
    await requireSuiteInTenant(id, principal.tenant);
    const key = caseScoreKey(metric);
    if (!key) throw new ActionError('invalid_input', `No per-case score explains ${metric}.`);
    // A token count that moved by a token or two is noise, not a case that "moved" (nor an epoch that differs).
    const cases = (await getMatrixCasesThatMoved(id, setting, key, undefined, BASELINE_SETTING, (a, b) => caseMoved(key, a, b))).filter(
      (c) => category === undefined || c.category === category,
    );
    return { metric, scoreKey: key, cases };
  },
});
