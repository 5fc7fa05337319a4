/**
 * The approval request's state machine and the reviewer checks. A request is pending until enough
 * distinct reviewers approve (quorum), one denies, or it expires; a request found out of date at
 * resume time becomes stale. Each refusal has its own class so the UI and the tests can tell them apart.
 */
import { z } from 'zod';
import { BoundProposalSchema } from './proposal';
import { hasTenantRole, type ReviewerIdentity } from './principal';

/** `cancelled`: the run was deleted before the request was acted on. */
export const APPROVAL_STATUSES = ['pending', 'approved', 'denied', 'expired', 'stale', 'cancelled'] as const;
export const ApprovalStatusSchema = z.enum(APPROVAL_STATUSES);
export type ApprovalStatus = z.infer<typeof ApprovalStatusSchema>;

/** A stored approval request (what the data layer returns). */
export const ApprovalRequestSchema = z.object({
  id: z.string(),
  runId: z.string(),
  callId: z.string(),
  step: z.number().int(),
  rule: z.string(),
  message: z.string(),
  approverRole: z.enum(['reviewer', 'admin']),
  quorum: z.number().int().min(1),
  proposal: BoundProposalSchema,
  digest: z.string(),
  status: ApprovalStatusSchema,
  stateVersion: z.number().int(),
  createdAt: z.string(),
  decidedAt: z.string().nullable(),
  /** Why a request ended stale/expired/denied (the changed field for stale). */
  outcomeDetail: z.string().nullable(),
  /** Why resuming the run after the decision failed (the sweeper retries), null once it went through. */
  resumeError: z.string().nullable().optional(),
  decisions: z.array(
    z.object({ reviewerId: z.string(), verdict: z.enum(['approve', 'deny']), reason: z.string(), at: z.string() }),
  ),
});
export type ApprovalRequest = z.infer<typeof ApprovalRequestSchema>;

/** A request still marked pending whose time ran out is expired (the tabs, pages and MCP clients agree). */
export function effectiveStatus(req: Pick<ApprovalRequest, 'status' | 'proposal'>, now: Date): ApprovalStatus {
  return req.status === 'pending' && now.getTime() >= Date.parse(req.proposal.expiresAt) ? 'expired' : req.status;
}

/** Why a reviewer's decision was refused. */
export type ReviewRefusal =
  | 'self_approval'
  | 'not_reviewer_for_tenant'
  | 'expired'
  | 'already_decided'
  | 'already_voted';

export const REVIEW_REFUSAL_MESSAGES: Record<ReviewRefusal, string> = {
  self_approval: 'You cannot review a call the agent made on your own behalf.',
  not_reviewer_for_tenant: 'You are not a reviewer for this tenant.',
  expired: 'This approval request has expired.',
  already_decided: 'This request has already been decided.',
  already_voted: 'You have already decided on this request.',
};

/** Checks whether `reviewer` may decide `request` at `now`; null when they may. */
export function reviewRefusal(request: ApprovalRequest, reviewer: ReviewerIdentity, now: Date): ReviewRefusal | null {
  if (request.status !== 'pending') return 'already_decided';
  if (reviewer.id === request.proposal.actor) return 'self_approval';
  if (!hasTenantRole(reviewer, request.proposal.tenant, request.approverRole)) return 'not_reviewer_for_tenant';
  if (now.getTime() >= Date.parse(request.proposal.expiresAt)) return 'expired';
  if (request.decisions.some((d) => d.reviewerId === reviewer.id)) return 'already_voted';
  return null;
}

/** The status a request moves to after one more verdict (quorum counts distinct approvers). */
export function statusAfter(request: ApprovalRequest, verdict: 'approve' | 'deny', reviewerId: string): ApprovalStatus {
  if (verdict === 'deny') return 'denied';
  const approvers = new Set(request.decisions.filter((d) => d.verdict === 'approve').map((d) => d.reviewerId));
  approvers.add(reviewerId);
  return approvers.size >= request.quorum ? 'approved' : 'pending';
}
