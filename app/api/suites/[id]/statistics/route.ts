/**
 * GET a suite's statistics (issue 35): each metric's mean with its 95% interval and n, and the
 * paired deltas with their significance — a matrix's settings against `none`, or with `?against=`
 * (instructor mode) the suite against the baseline suite run beside it. Both suites must be the
 * caller's tenant's.
 */
import { safeRoute } from '@/lib/boundary/safe-route';
import { requireSuiteInTenant } from '@/lib/db/governance/tenant-scope';
import { SuiteStatisticsQuerySchema } from '@/lib/schemas/api-queries';
import { getSuiteStatistics } from '@/lib/db/suites/suite-statistics';
import { TABLE_METRICS } from '@/lib/charts/matrix-view';
import { SUITE_CARD_METRICS } from '@/lib/charts/suite-diff';

export const GET = safeRoute({
  name: 'suiteStatistics',
  schema: SuiteStatisticsQuerySchema,
  role: 'viewer',
  handler: async ({ id, against }, { principal }) => {
    await requireSuiteInTenant(id, principal.tenant);
    if (against) await requireSuiteInTenant(against, principal.tenant);
    // The metrics each page shows: the matrix's table, or instructor mode's cards.
    return getSuiteStatistics(id, { against: against ?? null, metrics: against ? SUITE_CARD_METRICS : TABLE_METRICS });
  },
});
