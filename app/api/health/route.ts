/**
 * GET /api/health: the database and the job queue, for a load balancer (200 while the database
 * answers, 503 with Retry-After while it does not) and an operator (the JSON says why). Public, as
 * a load balancer has no session: it names no tenant, run or user, only the probes' results and the
 * queue's counts (lib/jobs/health.ts). Not behind safeRoute, whose first step is a signed-in role;
 * checkHealth never throws, so there is no error to map.
 */
import { checkHealth } from '@/lib/jobs/health';
import { UNAVAILABLE_RETRY_AFTER_S } from '@/lib/boundary/to-failure';

export const dynamic = 'force-dynamic';

export async function GET(): Promise<Response> {
  const health = await checkHealth();
  const headers: Record<string, string> = { 'cache-control': 'no-store' };
  if (!health.ok) headers['retry-after'] = String(UNAVAILABLE_RETRY_AFTER_S);
  return Response.json(health, { status: health.ok ? 200 : 503, headers });
}
