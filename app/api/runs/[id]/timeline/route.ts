/** GET a run's whole replay skeleton, packed (lib/charts/timeline-codec.ts): the replay of a long run, whose page sent only its head, fetches the rest here. */
import { safeRoute } from '@/lib/boundary/safe-route';
import { requireRunInTenant } from '@/lib/db/governance/tenant-scope';
import { packTimeline } from '@/lib/charts/timeline-codec';
import { SuiteQuerySchema } from '@/lib/schemas/api-queries';
import { loadTimeline } from '@/app/runs/[id]/load-timeline';

export const GET = safeRoute({
  name: 'runTimeline',
  schema: SuiteQuerySchema,
  role: 'viewer',
  handler: async ({ id }, { principal }) => {
    await requireRunInTenant(id, principal.tenant);
    return packTimeline(await loadTimeline(id));
  },
});
