/**
 * GET a page of a run's waterfall (`?page=N`, 0 by default; `?page=all` for a run of several agents,
 * whose span tree needs every bar): the bars placed over the whole run, packed (lib/charts/waterfall.ts).
 * The replay fetches it after the page, a page at a time as the list scrolls, so a long run's page
 * stays light and its waterfall is not sent whole (40,000 bars were 900 KiB).
 */
import { safeRoute } from '@/lib/boundary/safe-route';
import { NotFoundError } from '@/lib/db/core/errors';
import { waterfallPage } from '@/lib/charts/waterfall';
import { WaterfallQuerySchema } from '@/lib/schemas/api-queries';
import { loadWaterfall } from '@/app/runs/[id]/load-waterfall';

export const GET = safeRoute({
  name: 'runWaterfall',
  schema: WaterfallQuerySchema,
  role: 'viewer',
  handler: async ({ id, page }, { principal }) => {
    const w = await loadWaterfall(id, principal.tenant);
    if (!w) throw new NotFoundError('run', id);
    return waterfallPage(w.entries, w.runDurationMs, page);
  },
});
