'use server';
/**
 * Runs one of the admin's tenant's evaluators (its current version) over the runs stored in a window,
 * as jobs (lib/watch/backfill.ts): each run once per evaluator version. Another tenant's evaluator is
 * not found; a disabled one, a bad window or a backfill of it already running is refused naming the field.
 */
import { revalidatePath } from 'next/cache';
import { safeAction } from '../boundary/safe-action';
import { startBackfill, type BackfillDto } from '../db/review/evaluator-backfills';
import { getJobQueue } from '../jobs/queue';
import { backfillJobKey } from '../jobs/types';
import { BackfillInputSchema } from '../schemas/evaluators';

export const startBackfillAction = safeAction({
  name: 'startBackfill',
  schema: BackfillInputSchema,
  role: 'admin',
  handler: async ({ evaluatorId, from, to }, { principal }): Promise<{ backfill: BackfillDto }> => {
    const backfill = await startBackfill(principal.tenant, evaluatorId, { from, to }, principal.id);
    // A job lost here is not lost work: the watch job nudges every running backfill no step holds.
    await getJobQueue().enqueue('backfill', { backfillId: backfill.id, step: 0 }, { key: backfillJobKey(backfill.id) });
    revalidatePath('/evaluators');
    return { backfill };
  },
});
