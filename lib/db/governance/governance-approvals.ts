import 'server-only';
/**
 * Approval requests and reviewer decisions. A decision is a compare-and-set on the request's state
 * version inside one transaction with the decision row, so of any number of concurrent deciders
 * exactly one moves a quorum-1 request and the others get a clear "already decided".
 *
 * Redaction at rest (issue 33): `proposal` holds the arguments as reviewers see them, with the
 * tenant's classes taken out; the digest the approval is bound to is the real proposal's, and the
 * real arguments are kept sealed until the call is dispatched (governed-content.ts). Requests read
 * for a page are the redacted ones; `findApprovalForCall` (the resume's and the MCP re-check's read)
 * gives the real ones, so re-validation and the check before dispatch hash what was approved.
 */
import { ApprovalRequestSchema, reviewRefusal, statusAfter, type ApprovalRequest, type ApprovalStatus, type ReviewRefusal } from '../../governance';
import { BoundProposalSchema } from '../../governance';
import type { Redaction, ReviewerIdentity } from '../../governance';
import { safeJsonParse } from '../../harness';
import type { Prisma } from '../core';
import { DbError, NotFoundError } from '../core';
import { canonicalDigest } from '../../governance';
import { evidenceBody, type EvidenceBody } from '../../governance';
import { evidenceKey } from '../../governance';
import { appendEvidenceIn, PrismaEvidenceSink, withEvidenceTx } from './governance-evidence';
import { governedRedactor, openContent, proposalContent } from './governed-content';
import { mergeRedactions, storedRedactions } from './redaction-store';

/** How many times a decider re-reads after losing a compare-and-set (quorum > 1 only needs a few). */
const DECIDE_ATTEMPTS = 8;

type Row = Awaited<ReturnType<Prisma['approvalRequest']['findUniqueOrThrow']>> & {
  decisions: { reviewerId: string; verdict: string; reason: string; createdAt: Date }[];
};

/** `real`: the proposal with its real arguments (opened from their sealed copy), for re-validation and dispatch. */
function toRequest(r: Row, real = false): ApprovalRequest {
  const proposal = safeJsonParse(r.proposal);
  if (!proposal.ok) throw new DbError('corrupt', `approval ${r.id} has an unreadable proposal`);
  if (real && r.sealedArguments && proposal.value && typeof proposal.value === 'object' && !Array.isArray(proposal.value)) {
    proposal.value = { ...proposal.value, arguments: openContent(r.sealedArguments, `approval ${r.id}`) as typeof proposal.value };
  }
  return ApprovalRequestSchema.parse({
    id: r.id,
    runId: r.runId,
    callId: r.callId,
    step: r.step,
    rule: r.rule,
    message: r.message,
    approverRole: r.approverRole,
    quorum: r.quorum,
    proposal: BoundProposalSchema.parse(proposal.value),
    digest: r.digest,
    status: r.status,
    stateVersion: r.stateVersion,
    createdAt: r.createdAt.toISOString(),
    decidedAt: r.decidedAt?.toISOString() ?? null,
    outcomeDetail: r.outcomeDetail,
    resumeError: r.resumeError,
    decisions: r.decisions
      .slice()
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())
      .map((d) => ({ reviewerId: d.reviewerId, verdict: d.verdict as 'approve' | 'deny', reason: d.reason, at: d.createdAt.toISOString() })),
  });
}

type NewApproval = Omit<ApprovalRequest, 'status' | 'stateVersion' | 'createdAt' | 'decidedAt' | 'outcomeDetail' | 'decisions'>;

/**
 * A new pending request's row (its arguments redacted at rest, the real ones sealed), made outside any
 * transaction: the redaction lookups are not part of what the start commits.
 */
export async function approvalRowData(prisma: Prisma, req: NewApproval, now: Date) {
  const stored = await proposalContent(prisma, req.proposal);
  return {
    id: req.id,
    runId: req.runId,
    callId: req.callId,
    step: req.step,
    rule: req.rule,
    message: req.message,
    approverRole: req.approverRole,
    quorum: req.quorum,
    actor: req.proposal.actor,
    tenant: req.proposal.tenant,
    tool: req.proposal.tool,
    ...stored,
    digest: req.digest,
    status: 'pending',
    stateVersion: 0,
    expiresAt: new Date(req.proposal.expiresAt),
    createdAt: now,
  };
}

/** The request just stored from `req` at `now`, as createApprovalRequest reads it back (the real proposal, no decision). */
export function newPendingRequest(req: NewApproval, now: Date): ApprovalRequest {
  return ApprovalRequestSchema.parse({ ...req, status: 'pending', stateVersion: 0, createdAt: now.toISOString(), decidedAt: null, outcomeDetail: null, resumeError: null, decisions: [] });
}

/** Stores a new pending request. */
export async function createApprovalRequest(prisma: Prisma, req: NewApproval, now: Date): Promise<ApprovalRequest> {
  const r = await prisma.approvalRequest.create({ data: await approvalRowData(prisma, req, now), include: { decisions: true } });
  // The caller holds the real proposal already; it gets it back as it gave it.
  return toRequest(r, true);
}

/** The request as pages show it (its arguments redacted); `real`: with its real arguments, for the evidence's digests. */
export async function getApprovalOrThrow(prisma: Prisma, id: string, real = false): Promise<ApprovalRequest> {
  const r = await prisma.approvalRequest.findUnique({ where: { id }, include: { decisions: true } });
  if (!r) throw new NotFoundError('approval request', id);
  return toRequest(r, real);
}

/**
 * What redaction at rest kept out of a request of `tenant` and of its governed run (the question in its
 * spec, its result): class, count, where. Another tenant's request, or none: [].
 */
export async function approvalRedactions(prisma: Prisma, tenant: string, id: string): Promise<Redaction[]> {
  const r = await prisma.approvalRequest.findUnique({ where: { id }, select: { tenant: true, runId: true, redactions: true } });
  if (!r || r.tenant !== tenant) return [];
  const run = await prisma.governedRun.findUnique({ where: { runId: r.runId }, select: { tenant: true, redactions: true } });
  return storedRedactions(mergeRedactions(r.redactions, run?.tenant === tenant ? storedRedactions(run.redactions) : []));
}

/** The request for a run's call with its real arguments (re-validation and the check before dispatch hash them). */
export async function findApprovalForCall(prisma: Prisma, runId: string, callId: string): Promise<ApprovalRequest | null> {
  const r = await prisma.approvalRequest.findUnique({ where: { runId_callId: { runId, callId } }, include: { decisions: true } });
  return r ? toRequest(r, true) : null;
}

/**
 * The queue for one tab. `expired` also lists pending requests whose time ran out, and `pending`
 * leaves them out, so the tabs are right before anyone touched the request.
 */
export async function listApprovals(prisma: Prisma, status: ApprovalStatus, now: Date, tenants?: readonly string[]): Promise<ApprovalRequest[]> {
  const tenant = tenants ? { in: [...tenants] } : undefined;
  const where =
    status === 'pending'
      ? { status: 'pending', expiresAt: { gt: now }, tenant }
      : status === 'expired'
        ? { OR: [{ status: 'expired' }, { status: 'pending', expiresAt: { lte: now } }], tenant }
        : { status, tenant };
  const rows = await prisma.approvalRequest.findMany({ where, include: { decisions: true }, orderBy: [{ createdAt: 'desc' }, { id: 'asc' }], take: 200 });
  return rows.map((r) => toRequest(r));
}

export type DecideOutcome =
  | { ok: true; status: ApprovalStatus; request: ApprovalRequest }
  | { ok: false; refusal: ReviewRefusal | 'conflict'; status: ApprovalStatus; message: string };

const MESSAGES: Record<ReviewRefusal | 'conflict', string> = {
  self_approval: 'You cannot review a call the agent made on your own behalf.',
  not_reviewer_for_tenant: 'You are not a reviewer for this tenant.',
  expired: 'This approval request has expired.',
  already_decided: 'This request has already been decided.',
  already_voted: 'You have already decided on this request.',
  conflict: 'Others were deciding this request at the same time; try again.',
};

/** Longest reviewer reason kept in an evidence event (the full text stays on the decision row). */
const EVIDENCE_REASON_CHARS = 300;

/** Who decided (or was refused) what, and why: the request's binding, never its arguments. */
function decisionEvidence(
  kind: 'approval_decided' | 'approval_refused',
  req: ApprovalRequest,
  input: { reviewer: ReviewerIdentity; now: Date },
  decision: string,
  detail: string,
): EvidenceBody {
  return evidenceBody({
    kind,
    at: input.now.toISOString(),
    runId: req.runId,
    step: req.step,
    callId: req.callId,
    tool: req.proposal.tool,
    toolVersion: req.proposal.toolVersion,
    policyVersion: req.proposal.policyVersion,
    decision,
    rule: req.rule,
    argumentsDigest: canonicalDigest(req.proposal.arguments),
    actor: input.reviewer.id,
    detail: `approval ${req.id} (digest ${req.digest.slice(0, 16)}…): ${detail}`.slice(0, EVIDENCE_REASON_CHARS),
  });
}

/** Records one reviewer's verdict (with the checks of approval.ts), compare-and-set on the state version. */
export async function decideApproval(
  prisma: Prisma,
  input: { id: string; reviewer: ReviewerIdentity; verdict: 'approve' | 'deny'; reason: string; now: Date },
): Promise<DecideOutcome> {
  for (let attempt = 0; attempt < DECIDE_ATTEMPTS; attempt += 1) {
    // The real arguments: the evidence records their digest, as it did before redaction at rest.
    const req = await getApprovalOrThrow(prisma, input.id, true);
    // A reviewer's reason keeps out what the tenant keeps out of its runs (it is stored and goes into the evidence).
    const redactor = await governedRedactor(prisma, req.proposal.tenant, req.proposal.actor);
    const reason = redactor ? redactor.text(input.reason, 'reviewer reason') : input.reason;
    const redactions = redactor?.redactions() ?? [];
    const refusal = reviewRefusal(req, input.reviewer, input.now);
    if (refusal) {
      if (refusal === 'expired') await setApprovalOutcome(prisma, req.id, req.stateVersion, 'expired', `expired at ${req.proposal.expiresAt}`, input.now);
      const status = refusal === 'expired' ? 'expired' : req.status;
      const detail = refusal === 'already_decided' ? `${MESSAGES.already_decided} It is ${req.status}.` : MESSAGES[refusal];
      await new PrismaEvidenceSink(prisma).append(decisionEvidence('approval_refused', req, input, refusal, `${input.verdict} refused: ${detail}`));
      return { ok: false, refusal, status, message: detail };
    }
    const next = statusAfter(req, input.verdict, input.reviewer.id);
    const key = evidenceKey();
    // The decision and its evidence commit together: no decision without a record of who made it.
    const won = await withEvidenceTx(prisma, async (tx) => {
      const listed = redactions.length > 0 ? { redactions: mergeRedactions((await tx.approvalRequest.findUnique({ where: { id: req.id }, select: { redactions: true } }))?.redactions ?? null, redactions) } : {};
      const { count } = await tx.approvalRequest.updateMany({
        where: { id: req.id, status: 'pending', stateVersion: req.stateVersion },
        data: { status: next, stateVersion: req.stateVersion + 1, decidedAt: next === 'pending' ? null : input.now, ...listed },
      });
      if (count !== 1) return false;
      await tx.approvalDecision.create({
        data: { requestId: req.id, reviewerId: input.reviewer.id, verdict: input.verdict, reason, createdAt: input.now },
      });
      await appendEvidenceIn(tx, key, decisionEvidence('approval_decided', req, input, input.verdict, `request ${next}; reason: ${reason}`));
      return true;
    });
    if (won) return { ok: true, status: next, request: await getApprovalOrThrow(prisma, req.id) };
  }
  const req = await getApprovalOrThrow(prisma, input.id);
  return { ok: false, refusal: 'conflict', status: req.status, message: MESSAGES.conflict };
}

/** Moves a request to a final resume-time outcome (expired / stale), compare-and-set. */
export async function setApprovalOutcome(prisma: Prisma, id: string, expectedVersion: number, status: ApprovalStatus, detail: string, now: Date): Promise<boolean> {
  const { count } = await prisma.approvalRequest.updateMany({
    where: { id, stateVersion: expectedVersion },
    // A request refused for good (expired, stale, denied, cancelled) is never dispatched: its sealed arguments go.
    data: { status, outcomeDetail: detail, stateVersion: expectedVersion + 1, decidedAt: now, ...(status !== 'approved' && status !== 'pending' ? { sealedArguments: null } : {}) },
  });
  return count === 1;
}

/** Every request of the given runs, newest first per run (runs list and replay link to the latest). */
export async function approvalsForRuns(prisma: Prisma, runIds: readonly string[]): Promise<Map<string, ApprovalRequest[]>> {
  const out = new Map<string, ApprovalRequest[]>();
  if (runIds.length === 0) return out;
  const rows = await prisma.approvalRequest.findMany({ where: { runId: { in: [...runIds] } }, include: { decisions: true }, orderBy: [{ createdAt: 'desc' }, { id: 'asc' }] });
  for (const r of rows) {
    const list = out.get(r.runId) ?? [];
    list.push(toRequest(r));
    out.set(r.runId, list);
  }
  return out;
}
