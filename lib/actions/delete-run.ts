'use server';
/**
 * Deletes a stored run and the blobs only it used. Operators may delete runs they started from the
 * dashboard; admins may delete any run of their tenant (including runs stored by the CLI without an
 * owner). Another tenant's run is answered as not found, whoever asks. Deleting a governed run that
 * waits for approval cancels its request.
 */
import { revalidatePath } from 'next/cache';
import { getDb } from '../db/core/client';
import { cancelGovernedRun, runOwner } from '../db/governance/governance-runs';
import { deleteRun } from '../db/runs/runs-write';
import { requireRunInTenant } from '../db/governance/tenant-scope';
import { DeleteRunInputSchema } from '../schemas/run-id';
import { holdsRole } from '../auth/authorize';
import { ActionError } from '../boundary/errors';
import { ForbiddenError } from '../auth/errors';
import { safeAction } from '../boundary/safe-action';

export const deleteRunAction = safeAction({
  name: 'deleteRun',
  schema: DeleteRunInputSchema,
  role: 'operator',
  handler: async ({ runId }, { principal }) => {
    await requireRunInTenant(runId, principal.tenant);
    if (!holdsRole(principal.memberships, 'admin', principal.tenant)) {
      const owner = await runOwner(getDb().prisma, runId);
      if (owner !== principal.id) throw new ForbiddenError('Operators may delete only runs they started; ask an admin to delete this one.');
    }
    // A paused governed run: cancel it and its approval first, so approving later cannot bring it back.
    await cancelGovernedRun(getDb().prisma, runId, principal.id);
    if (!(await deleteRun(runId))) throw new ActionError('not_found', 'That run does not exist (it may already be deleted).');
    revalidatePath('/runs');
    return { runId };
  },
});
