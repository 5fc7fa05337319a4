'use server';
/**
 * Stops a live run of the caller's tenant while it runs (its replay page's "Stop this run"): the
 * model call in flight is aborted and the run ends as MODEL_ERROR (cancelled), keeping its steps so
 * far. Another tenant's run is answered as not found; a run that has already ended is refused.
 */
import { revalidatePath } from 'next/cache';
import { requireRunInTenant } from '../db/governance/tenant-scope';
import { requestStop } from '../runs/stop-runs';
import { StopRunInputSchema } from '../schemas/api-queries';
import { ActionError } from '../boundary/errors';
import { safeAction } from '../boundary/safe-action';

export const stopRunAction = safeAction({
  name: 'stopRun',
  schema: StopRunInputSchema,
  role: 'operator',
  handler: async ({ id }, { principal }) => {
    await requireRunInTenant(id, principal.tenant);
    if (!(await requestStop(id))) throw new ActionError('already_finished', 'That run has already ended; there is nothing to stop.');
    revalidatePath(`/runs/${id}`);
    return { id, status: 'stopping' as const };
  },
});
