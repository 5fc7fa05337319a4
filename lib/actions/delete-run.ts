'use server';
/** Deletes a stored run and the blobs only it used. */
import { revalidatePath } from 'next/cache';
import { deleteRun } from '../db/runs-write';
import { DeleteRunInputSchema } from '../schemas/run-id';
import { ActionError } from './errors';
import { safeAction } from './safe-action';

export const deleteRunAction = safeAction({
  name: 'deleteRun',
  schema: DeleteRunInputSchema,
  role: 'operator',
  handler: async ({ runId }) => {
    if (!(await deleteRun(runId))) throw new ActionError('not_found', 'That run does not exist (it may already be deleted).');
    revalidatePath('/runs');
    return { runId };
  },
});
