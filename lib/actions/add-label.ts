'use server';
/**
 * Labels a run, or one of its steps, with the tenant's label set: a verdict, an optional category,
 * score and comment. Reviewers (and admins) only; the label is kept with who and when, and recorded
 * in the run's evidence chain in the same transaction.
 */
import { addRunLabel, type RunLabelDto } from '../db/review/labels';
import { AddLabelInputSchema } from '../schemas/labels';
import { safeAction } from '../boundary/safe-action';

export const addLabelAction = safeAction({
  name: 'addLabel',
  schema: AddLabelInputSchema,
  role: 'reviewer',
  handler: async (input, { principal }): Promise<RunLabelDto> => {
    // No revalidation: the pages that show labels render fresh on every request, and revalidating
    // would re-render the page the label was given on (the queue, after every key press).
    return addRunLabel(principal.tenant, { ...input, by: { id: principal.id, name: principal.name || principal.email } });
  },
});
