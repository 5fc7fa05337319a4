import 'server-only';
/**
 * Which webhook events a governed run's state calls for, and when. Events are read off the state
 * (its requests and how the run ended) rather than fired at each transition, and each is recorded
 * once per endpoint by its key, so calling this again — after a start, a decision, a resume, or from
 * the sweep — sends nothing twice and misses nothing a crash skipped. Recording never fails the run
 * or the decision that led here: a notification problem is logged and the sweep tries again.
 */
import { getDb } from '../db/core';
import { approvalsForRuns, listApprovals } from '../db/governance';
import { findGovernedRun } from '../db/governance';
import { eventRecorded } from '../db/auth';
import { currentPolicy, type ApprovalRequest, type PolicyDocument } from '../governance';
import { dashboardUrl } from '../mcp';
import { emitEvent, expiryWarningSeconds, type DeliveryQueue, type EventData, type WebhookEvent } from '../notify';

const link = (path: string) => `${dashboardUrl()}${path}`;

function requestData(req: ApprovalRequest, status: string): EventData {
  const last = req.decisions.at(-1);
  return {
    tenant: req.proposal.tenant,
    runId: req.runId,
    requestId: req.id,
    tool: req.proposal.tool,
    rule: req.rule,
    message: req.message,
    approverRole: req.approverRole,
    quorum: req.quorum,
    approvals: req.decisions.filter((d) => d.verdict === 'approve').length,
    status,
    expiresAt: req.proposal.expiresAt,
    verdict: last?.verdict ?? null,
    terminationReason: null,
    escalatedTo: null,
    link: link(`/approvals/${req.id}`),
  };
}

async function emitForRequest(queue: DeliveryQueue, req: ApprovalRequest, now: Date): Promise<void> {
  const prisma = getDb().prisma;
  const expired = req.status === 'expired' || (req.status === 'pending' && now.getTime() >= Date.parse(req.proposal.expiresAt));
  const one = (type: WebhookEvent, status: string) => emitEvent(prisma, queue, { type, subject: req.id, data: requestData(req, status), audience: req.approverRole, at: now });
  if (req.status === 'pending' && !expired) await one('approval.requested', 'pending');
  else if (expired) await one('approval.expired', 'expired');
  else if ((req.status === 'approved' || req.status === 'denied') && req.decisions.length > 0) await one('approval.decided', req.status);
}

/** Emits what the run's state calls for: its requests' events, and the run's end unless it COMPLETED. */
export async function notifyGovernedRun(runId: string, queue: DeliveryQueue | undefined, now: Date = new Date()): Promise<void> {
  if (!queue) return;
  try {
    const prisma = getDb().prisma;
    for (const req of (await approvalsForRuns(prisma, [runId])).get(runId) ?? []) await emitForRequest(queue, req, now);
    const run = await findGovernedRun(prisma, runId);
    if (run && run.status === 'finished' && run.result.terminationReason !== 'COMPLETED') {
      await emitEvent(prisma, queue, {
        type: 'run.ended',
        subject: runId,
        audience: null,
        at: now,
        data: {
          tenant: run.principal.tenant,
          runId,
          requestId: null,
          tool: null,
          rule: null,
          message: null,
          approverRole: null,
          quorum: null,
          approvals: null,
          status: run.result.status,
          expiresAt: null,
          verdict: null,
          terminationReason: run.result.terminationReason,
          escalatedTo: null,
          link: link(`/runs/${runId}`),
        },
      });
    }
  } catch (err) {
    console.error(`[notify] events of run ${runId} could not be recorded (the sweep tries again)`, err);
  }
}

/** The rule a request was made under, in the policy as it is now (null: gone from the policy). */
function ruleOf(doc: PolicyDocument, req: ApprovalRequest) {
  for (const [key, tool] of Object.entries(doc.tools)) {
    if (key !== req.proposal.tool && !key.endsWith(`/${req.proposal.tool}`)) continue;
    const rule = tool.rules.find((r) => r.id === req.rule);
    if (rule && rule.effect === 'approval_required') return rule;
  }
  return null;
}

/** When the request is escalated (null: its rule has no escalation). */
export function escalationOf(doc: PolicyDocument, req: ApprovalRequest): { at: Date; to: 'reviewer' | 'admin' } | null {
  const esc = ruleOf(doc, req)?.escalate;
  return esc ? { at: new Date(Date.parse(req.createdAt) + esc.afterSeconds * 1000), to: esc.to } : null;
}

/**
 * The sweep's part: pending requests not yet announced are announced, those about to expire are announced once (STOCKROOM_APPROVAL_WARN_SECONDS
 * before), requests past their rule's `escalate.afterSeconds` are announced once to the escalation
 * role's endpoints, and requests already expired get their expiry announced (the resume that tells
 * the run follows through the sweep's own resume jobs).
 */
export async function notifyDueApprovals(queue: DeliveryQueue, now: Date = new Date()): Promise<void> {
  const prisma = getDb().prisma;
  let doc: PolicyDocument | null = null;
  try {
    doc = currentPolicy().document;
  } catch {
    doc = null; // a broken policy file: warnings and expiries still go out, escalations wait for it
  }
  try {
    const warnMs = expiryWarningSeconds() * 1000;
    for (const req of await listApprovals(prisma, 'pending', now)) {
      await emitForRequest(queue, req, now); // `requested`, if the start that made it stopped before recording it
      const left = Date.parse(req.proposal.expiresAt) - now.getTime();
      if (left <= warnMs && !(await eventRecorded(prisma, req.proposal.tenant, `approval.expiring:${req.id}`))) {
        await emitEvent(prisma, queue, { type: 'approval.expiring', subject: req.id, data: requestData(req, 'pending'), audience: req.approverRole, at: now });
      }
      const esc = doc ? escalationOf(doc, req) : null;
      if (esc && now >= esc.at) {
        await emitEvent(prisma, queue, { type: 'approval.escalated', subject: req.id, data: { ...requestData(req, 'pending'), escalatedTo: esc.to }, audience: esc.to, at: now });
      }
    }
    for (const req of await listApprovals(prisma, 'expired', now)) await emitForRequest(queue, req, now);
  } catch (err) {
    console.error('[notify] the sweep could not record due approval events (the next sweep tries again)', err);
  }
}
