/** GET the non-text parts of one tool call (images, audio, resource links, embedded resources), whole, for replay. */
import { safeRoute } from '@/lib/boundary/safe-route';
import { getToolMediaAt } from '@/lib/db/runs/runs-read';
import { requireRunInTenant } from '@/lib/db/governance/tenant-scope';
import { ToolResultQuerySchema } from '@/lib/schemas/api-queries';

export const GET = safeRoute({
  name: 'toolMedia',
  schema: ToolResultQuerySchema,
  role: 'viewer',
  handler: async ({ id, index }, { principal }) => {
    await requireRunInTenant(id, principal.tenant);
    return { media: await getToolMediaAt(id, index) };
  },
});
