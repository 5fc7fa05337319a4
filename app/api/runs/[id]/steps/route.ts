/** GET a run's trajectory entries for harness steps `fromStep..toStep` (replay loads a step at a time). */
import { safeRoute } from '@/lib/boundary/safe-route';
import { getRunSteps } from '@/lib/db/runs/runs-read';
import { requireRunInTenant } from '@/lib/db/governance/tenant-scope';
import { withFindings } from '@/lib/db/review/step-findings';
import { RunStepsQuerySchema } from '@/lib/schemas/api-queries';

export const GET = safeRoute({
  name: 'runSteps',
  schema: RunStepsQuerySchema,
  role: 'viewer',
  handler: async ({ id, fromStep, toStep }, { principal }) => {
    await requireRunInTenant(id, principal.tenant);
    return withFindings(id, await getRunSteps(id, { fromStep, toStep }));
  },
});
