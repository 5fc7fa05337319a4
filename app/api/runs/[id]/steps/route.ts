/** GET a run's trajectory entries for harness steps `fromStep..toStep` (replay loads a step at a time). */
import { safeRoute } from '@/lib/actions/safe-route';
import { getRunSteps } from '@/lib/db/runs-read';
import { RunStepsQuerySchema } from '@/lib/schemas/api-queries';

export const GET = safeRoute({
  name: 'runSteps',
  schema: RunStepsQuerySchema,
  role: 'viewer',
  handler: ({ id, fromStep, toStep }) => getRunSteps(id, { fromStep, toStep }),
});
