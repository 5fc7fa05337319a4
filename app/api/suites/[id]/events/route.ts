/**
 * GET a suite's status as server-sent events (`status`), sent when it changes and ended after the
 * suite has ended (or is gone: `gone`). The end carries the finished suite as GET /api/suites/[id]
 * answers it, which the matrix page draws at once instead of fetching it; the page keeps polling
 * (the table filling in) whether or not the stream works.
 */
import { safeRoute } from '@/lib/boundary/safe-route';
import { requireSuiteInTenant } from '@/lib/db/governance/tenant-scope';
import { SuiteQuerySchema } from '@/lib/schemas/api-queries';
import { suiteStatusEventStream } from '@/lib/runs/progress-events';

export const dynamic = 'force-dynamic';

export const GET = safeRoute({
  name: 'suiteEvents',
  schema: SuiteQuerySchema,
  role: 'viewer',
  handler: async ({ id }, { principal, request }) => {
    await requireSuiteInTenant(id, principal.tenant);
    return suiteStatusEventStream(id, principal.tenant, request.signal);
  },
});
