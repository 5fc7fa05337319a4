'use server';
/**
 * Cancels a queued or running suite or matrix of the caller's tenant: workers stop its cases within
 * seconds and the cases stored so far stay as its partial result, marked cancelled. Another
 * tenant's suite is answered as not found.
 */
import { revalidatePath } from 'next/cache';
import { cancelSuiteRun } from '../db/suites/suite-jobs';
import { requireSuiteInTenant } from '../db/governance/tenant-scope';
import { CancelSuiteInputSchema } from '../schemas/api-queries';
import { ActionError } from '../boundary/errors';
import { safeAction } from '../boundary/safe-action';

export const cancelSuiteAction = safeAction({
  name: 'cancelSuite',
  schema: CancelSuiteInputSchema,
  role: 'operator',
  handler: async ({ id }, { principal }) => {
    await requireSuiteInTenant(id, principal.tenant);
    const outcome = await cancelSuiteRun(id);
    if (outcome === 'already-finished') throw new ActionError('already_finished', 'That suite has already finished; there is nothing to cancel.');
    revalidatePath('/matrix');
    return { id, status: 'cancelled' as const };
  },
});
