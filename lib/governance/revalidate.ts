/**
 * Re-validation immediately before dispatch: everything an approval binds is checked again against
 * the world as it is now. The result is the resolution handed to the harness's resume; any mismatch
 * refuses the dispatch and names the field that changed. Expired, denied and stale stay distinct.
 */
import type { ApprovalResolution } from '../harness';
import type { ApprovalRequest } from './approval';
import { hasTenantRole, type ReviewerIdentity } from './principal';
import { firstChangedField, proposalDigest, type BoundProposal } from './proposal';

export interface RevalidationContext {
  /** The proposal rebuilt from the paused run's awaited call and today's policy and registry. */
  current: Omit<BoundProposal, 'expiresAt'>;
  now: Date;
  /** The approvers as they are now (memberships re-read from storage); missing ids have lost authority. */
  approvers: ReadonlyMap<string, ReviewerIdentity>;
}

export type Revalidation = { resolution: ApprovalResolution; status: 'approved' | 'denied' | 'expired' | 'stale'; field: string | null };

/** Decides the resolution for a request whose status is approved or denied. */
export function revalidate(request: ApprovalRequest, ctx: RevalidationContext): Revalidation {
  if (request.status === 'denied') {
    // The message is a clause others end with their own full stop ("…: not this week."), so the reason's is dropped.
    const reason = (request.decisions.find((d) => d.verdict === 'deny')?.reason ?? 'denied').trim().replace(/\.+$/, '') || 'denied';
    return { status: 'denied', field: null, resolution: { outcome: 'denied', message: `a reviewer denied this call: ${reason}` } };
  }
  if (request.status === 'expired') {
    return { status: 'expired', field: 'expiresAt', resolution: { outcome: 'expired', message: `the approval expired at ${request.proposal.expiresAt}` } };
  }
  const stale = (field: string, why: string): Revalidation => ({
    status: 'stale',
    field,
    resolution: { outcome: 'stale', message: `the approval no longer matches (${field} changed): ${why}` },
  });
  if (proposalDigest(request.proposal) !== request.digest) return stale('digest', 'the stored proposal does not hash to the approved digest');
  const changed = firstChangedField(request.proposal, { ...ctx.current, expiresAt: request.proposal.expiresAt });
  if (changed) return stale(changed, `approved ${summarise(request.proposal[changed])}, now ${summarise(ctx.current[changed as Exclude<typeof changed, 'expiresAt'>])}`);
  if (ctx.now.getTime() >= Date.parse(request.proposal.expiresAt)) {
    return { status: 'expired', field: 'expiresAt', resolution: { outcome: 'expired', message: `the approval expired at ${request.proposal.expiresAt}` } };
  }
  if (request.status !== 'approved') return stale('status', `the request is ${request.status}, not approved`);
  for (const d of request.decisions.filter((x) => x.verdict === 'approve')) {
    const who = ctx.approvers.get(d.reviewerId);
    if (!who || who.id === request.proposal.actor || !hasTenantRole(who, request.proposal.tenant, request.approverRole)) {
      return stale('approver', `${d.reviewerId} no longer has the ${request.approverRole} role for ${request.proposal.tenant}`);
    }
  }
  return { status: 'approved', field: null, resolution: { outcome: 'approved' } };
}

function summarise(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}
