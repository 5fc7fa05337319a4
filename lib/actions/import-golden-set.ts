'use server';
/**
 * Imports golden JSONL (the course's format) as the next version of one of the caller's tenant's
 * sets. Every bad line is refused at once, naming its line and field; nothing is stored then.
 */
import { importGoldenSet, type GoldenSetSummary } from '../db/review/golden-sets';
import { ImportGoldenSetInputSchema } from '../schemas/golden-sets';
import { safeAction } from '../boundary/safe-action';

export const importGoldenSetAction = safeAction({
  name: 'importGoldenSet',
  schema: ImportGoldenSetInputSchema,
  role: 'operator',
  handler: async ({ name, jsonl }, { principal }): Promise<GoldenSetSummary> => {
    // /golden-sets renders fresh on every request (the form refreshes it).
    return importGoldenSet(principal.tenant, name, jsonl, principal.id);
  },
});
