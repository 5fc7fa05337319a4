'use server';
/**
 * Labels a run, or one of its steps, with the tenant's label set: a verdict, an optional category,
 * score and comment. Reviewers (and admins) only; the label is kept with who and when, and recorded
 * in the run's evidence chain in the same transaction.
 */
import { revalidatePath } from 'next/cache';
import { addRunLabel, type RunLabelDto } from '../db/labels';
import { AddLabelInputSchema } from '../schemas/labels';
import { safeAction } from '../boundary/safe-action';

export const addLabelAction = safeAction({
  name: 'addLabel',
  schema: AddLabelInputSchema,
  role: 'reviewer',
  handler: async (input, { principal }): Promise<RunLabelDto> => {
    const label = await addRunLabel(principal.tenant, { ...input, by: { id: principal.id, name: principal.name || principal.email } });
    revalidatePath(`/runs/${input.runId}`);
    return label;
  },
});
