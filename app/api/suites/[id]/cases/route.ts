/** GET the per-case scores of a suite run (instructor mode compares two suites case by case). */
import { safeRoute } from '@/lib/actions/safe-route';
import { getSuiteCases } from '@/lib/db/suites';
import { SuiteQuerySchema } from '@/lib/schemas/api-queries';

export const GET = safeRoute({
  name: 'suiteCases',
  schema: SuiteQuerySchema,
  role: 'viewer',
  handler: async ({ id }) => ({ cases: await getSuiteCases(id) }),
});
