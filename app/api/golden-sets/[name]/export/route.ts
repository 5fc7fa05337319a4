/** GET a stored golden set (`?version=N`, else the newest) as golden JSONL, the course's format (what the import takes back). */
import { z } from 'zod';
import { safeRoute } from '@/lib/boundary/safe-route';
import { getGoldenSetTextOrThrow } from '@/lib/db/review/golden-sets';
import { GoldenSetNameSchema } from '@/lib/eval/golden-sets';

const Query = z.object({ name: GoldenSetNameSchema, version: z.coerce.number().int().min(1).optional() });

export const GET = safeRoute({
  name: 'exportGoldenSet',
  schema: Query,
  role: 'viewer',
  handler: async ({ name, version }, { principal }) => {
    const set = await getGoldenSetTextOrThrow(principal.tenant, name, version ?? null);
    return new Response(set.jsonl, {
      headers: {
        'content-type': 'application/x-ndjson; charset=utf-8',
        'content-disposition': `attachment; filename="${set.name}-v${set.version}.jsonl"`,
        'cache-control': 'no-store',
      },
    });
  },
});
