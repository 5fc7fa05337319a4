'use server';
/**
 * Stores a new version of the caller's tenant's label set (verdicts and categories). Admins only;
 * labels already given keep the version they were given under.
 */
import { saveLabelSet, type VersionedLabelSet } from '../db/review/labels';
import { SaveLabelSetInputSchema } from '../schemas/labels';
import { safeAction } from '../boundary/safe-action';

export const saveLabelSetAction = safeAction({
  name: 'saveLabelSet',
  schema: SaveLabelSetInputSchema,
  role: 'admin',
  handler: async (set, { principal }): Promise<VersionedLabelSet> => {
    // The pages that use the set render fresh on every request (the form refreshes its own).
    return saveLabelSet(principal.tenant, set, principal.id);
  },
});
