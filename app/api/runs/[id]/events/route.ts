/**
 * GET a running run's progress as server-sent events (`progress`, the same object the progress route
 * answers), sent when it changes: a step stored, a tool's progress, the streamed answer forming, the
 * end. The stream ends after the run has ended (or is gone: `gone`); a browser's EventSource
 * reconnects by itself after a cut, and the page falls back to polling the progress route.
 */
import { safeRoute } from '@/lib/boundary/safe-route';
import { requireRunInTenant } from '@/lib/db/governance/tenant-scope';
import { SuiteQuerySchema } from '@/lib/schemas/api-queries';
import { progressEventStream } from '@/lib/runs/progress-events';

export const dynamic = 'force-dynamic';

export const GET = safeRoute({
  name: 'runEvents',
  schema: SuiteQuerySchema,
  role: 'viewer',
  handler: async ({ id }, { principal, request }) => {
    await requireRunInTenant(id, principal.tenant);
    return progressEventStream(id, request.signal);
  },
});
