'use server';
/**
 * A reviewer approves or denies a pending request of their tenant, with a reason; the paused run
 * is then resumed (lib/runs/governed-decision.ts). A request of another tenant is answered as not
 * found, and one whose approver role the caller lacks is refused.
 */
import { revalidatePath } from 'next/cache';
import { holdsRole } from '../auth/authorize';
import { ForbiddenError } from '../auth/errors';
import { safeAction } from '../boundary/safe-action';
import { approvalInTenant } from '../db/governance/tenant-scope';
import { getRunQueue } from '../jobs/queue';
import { decideAndResume, type DecideApprovalResult } from '../runs/governed-decision';
import { DecideApprovalInputSchema } from '../schemas/governance';

export const decideApprovalAction = safeAction({
  name: 'decideApproval',
  schema: DecideApprovalInputSchema,
  role: 'reviewer',
  // Nothing is written when the decision's own write fails, so sending it again is safe.
  unavailable: 'Your decision was not recorded: the database is unavailable. Nothing changed; send it again.',
  handler: async ({ id, verdict, reason }, { principal }): Promise<DecideApprovalResult> => {
    // A reviewer of another tenant learns nothing about the request, not even that it exists.
    const req = await approvalInTenant(id, principal.tenant);
    if (!holdsRole(principal.memberships, req.approverRole, req.proposal.tenant)) {
      throw new ForbiddenError(`This request needs the ${req.approverRole} role.`);
    }
    try {
      const out = await decideAndResume(req, { verdict, reason, reviewer: { id: principal.id, memberships: principal.memberships } }, getRunQueue());
      if (out.resumedHere) {
        revalidatePath('/runs');
        revalidatePath(`/runs/${req.runId}`);
      }
      return out.result;
    } finally {
      revalidatePath('/approvals');
      revalidatePath(`/approvals/${id}`);
    }
  },
});
