/** GET a run's waterfall entries, packed (lib/charts/waterfall.ts); the replay fetches it after the page, so a long run's page stays light. */
import { safeRoute } from '@/lib/boundary/safe-route';
import { NotFoundError } from '@/lib/db/core/errors';
import { packWaterfall } from '@/lib/charts/waterfall';
import { SuiteQuerySchema } from '@/lib/schemas/api-queries';
import { loadWaterfall } from '@/app/runs/[id]/load-waterfall';

export const GET = safeRoute({
  name: 'runWaterfall',
  schema: SuiteQuerySchema,
  role: 'viewer',
  handler: async ({ id }, { principal }) => {
    const w = await loadWaterfall(id, principal.tenant);
    if (!w) throw new NotFoundError('run', id);
    return { packed: packWaterfall(w.entries), runDurationMs: w.runDurationMs };
  },
});
