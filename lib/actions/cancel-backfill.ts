'use server';
/** Cancels a running backfill of the admin's tenant (another tenant's: not found); the scores it stored stay. */
import { revalidatePath } from 'next/cache';
import { ActionError } from '../boundary/errors';
import { safeAction } from '../boundary/safe-action';
import { cancelBackfill } from '../db/review/evaluator-backfills';
import { BackfillIdSchema } from '../schemas/evaluators';

export const cancelBackfillAction = safeAction({
  name: 'cancelBackfill',
  schema: BackfillIdSchema,
  role: 'admin',
  handler: async ({ backfillId }, { principal }): Promise<{ cancelled: string }> => {
    if (!(await cancelBackfill(principal.tenant, backfillId))) throw new ActionError('not_found', 'No such running backfill in this tenant.');
    revalidatePath('/evaluators');
    return { cancelled: backfillId };
  },
});
