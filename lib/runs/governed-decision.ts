import 'server-only';
/**
 * A reviewer's decision on a pending request, and what follows it. The decision is a compare-and-set
 * in the data layer; once the request is decided the paused run is resumed (re-validating every
 * bound field) and continues to its end: here on the embedded SQLite default, as a job a worker
 * takes on PostgreSQL (the queue is handed in). Each refusal comes back with its own code and a
 * message that says what happened: someone else decided first, the request expired, it went stale
 * (naming the changed field) or self-approval. The caller has checked the request is in its tenant
 * and that the reviewer holds the request's role.
 */
import { getDb } from '../db/core';
import { decideApproval, getApprovalOrThrow } from '../db/governance';
import { userLabels } from '../db/governance';
import { workerPresence } from '../db/suites';
import { isDatabaseUnavailable } from '../db/core';
import type { ApprovalRequest } from '../governance';
import { ConflictError, GovernanceError } from '../governance';
import type { Membership } from '../governance';
import { isMcpApproval } from '../mcp';
import { RunError } from './errors';
import { resumeAfterDecision } from './governed-resume';
import { requestOutcomes } from './request-view';
import type { RequestOutcome } from '../governance';
import type { RunQueue } from './queue-port';
import type { DeliveryQueue } from '../notify';
import { notifyGovernedRun } from './notifications';

/** What the reviewer sees after deciding. */
export interface DecideApprovalResult {
  status: ApprovalRequest['status'];
  /** The run after resuming: finished, paused again (another approval), or null while more approvals are needed. */
  run: { status: string; terminationReason: string } | null;
  /** How re-validation at dispatch resolved the call (approved, denied, expired, stale + field). */
  dispatch: { status: string; field: string | null; message: string } | null;
  message: string;
  /** Where the request is now, as every page says it (null for a request an MCP client asked for). */
  outcome?: RequestOutcome | null;
}

/** The one answer to a decision that came after the request's expiry. */
function expiredText(req: ApprovalRequest): string {
  return `This request expired at ${req.proposal.expiresAt.replace('T', ' ').slice(0, 19)} UTC and can no longer be decided.`;
}

/** "Approved — RSR-0001 created": the outcome line as the start of a sentence. */
const sentence = (o: RequestOutcome) => `${o.text.charAt(0).toUpperCase()}${o.text.slice(1)}`;

async function whoDecided(req: ApprovalRequest): Promise<string> {
  const labels = await userLabels(getDb().prisma, req.decisions.map((d) => d.reviewerId));
  const last = req.decisions.at(-1);
  if (!last) return `It is ${req.status}${req.outcomeDetail ? ` (${req.outcomeDetail})` : ''}.`;
  const verb = last.verdict === 'approve' ? 'approved' : 'denied';
  return `${labels.get(last.reviewerId) ?? last.reviewerId} ${verb} it at ${last.at.slice(0, 19).replace('T', ' ')} UTC ("${last.reason}"); it is now ${req.status}.`;
}

async function resume(runId: string, notify: DeliveryQueue): Promise<Pick<DecideApprovalResult, 'run' | 'dispatch'> & { failure?: string }> {
  try {
    const out = await resumeAfterDecision(runId, undefined, notify);
    const r = out.revalidation;
    return {
      run: { status: out.result.status, terminationReason: out.result.terminationReason },
      dispatch: r ? { status: r.status, field: r.field, message: r.resolution.outcome === 'approved' ? 'the call was dispatched' : r.resolution.message } : null,
    };
  } catch (err) {
    // Another worker resumed it first: the run goes on there, nothing to do here.
    if (err instanceof ConflictError) return { run: null, dispatch: null };
    // A write already reached the downstream: the user is told exactly that.
    if (err instanceof RunError) throw err;
    // Nothing was written: the decision stands, the failure is on the run, and the sweeper retries.
    const why = err instanceof GovernanceError ? err.message : 'an unexpected server error (logged)';
    if (!(err instanceof GovernanceError)) console.error(`[decideApproval] resuming run ${runId} failed`, err);
    return { run: null, dispatch: null, failure: why };
  }
}

/**
 * On PostgreSQL the resume is a job (keyed by run, so the sweep adds no second one while it waits):
 * a worker resumes the run, not this request. Returns the live workers then, or null on the embedded
 * SQLite default, where this process is the worker and resumes in the request so the reviewer sees
 * the outcome at once.
 */
async function resumeOnWorker(runId: string, queue: RunQueue): Promise<{ online: number } | null> {
  if (!queue.remote) return null;
  await queue.enqueueResume(runId);
  const workers = await workerPresence();
  return { online: workers.backend === 'workers' ? workers.online : 0 };
}

/** The answer, and whether the run was resumed in this process (its pages changed). */
export interface DecidedResult {
  result: DecideApprovalResult;
  resumedHere: boolean;
}

export interface Decision {
  verdict: 'approve' | 'deny';
  reason: string;
  reviewer: { id: string; memberships: Membership[] };
}

/** Records the reviewer's decision on `req` and resumes its run (here or on a worker). */
export async function decideAndResume(req: ApprovalRequest, { verdict, reason, reviewer }: Decision, queue: RunQueue): Promise<DecidedResult> {
  const prisma = getDb().prisma;
  const id = req.id;
  const out = await decideApproval(prisma, { id, reviewer, verdict, reason, now: new Date() });
  if (!out.ok) {
    if (out.refusal === 'expired' && isMcpApproval(req)) throw new RunError('expired', expiredText(req));
    if (out.refusal === 'expired') {
      // The run learns that its approval expired and finishes (here, or on a worker); the reviewer is told plainly.
      if (!(await resumeOnWorker(req.runId, queue))) {
        await resume(req.runId, queue).catch((err: unknown) => {
          if (!(err instanceof GovernanceError)) throw err;
        });
      }
      throw new RunError('expired', `${expiredText(req)} The run was told and finished without the call.`);
    }
    if (out.refusal === 'already_decided') {
      const now = await getApprovalOrThrow(prisma, id);
      // Nobody decided a request that ran out of time (the sweep or an earlier attempt marked it): say so.
      if (now.status === 'expired' && now.decisions.length === 0) throw new RunError('expired', expiredText(now));
      throw new RunError('already_decided', `Someone else decided first. ${await whoDecided(now)}`);
    }
    if (out.refusal === 'self_approval') {
      throw new RunError('self_approval', 'You started this run, so you cannot review its call: another reviewer must decide.');
    }
    throw new RunError(out.refusal, out.message);
  }
  // The decision (or a quorum's progress) is announced whatever happens to the resume below.
  await notifyGovernedRun(req.runId, queue);
  // Answers for a decision after which nothing runs in this request.
  const decidedOnly = (message: string): DecidedResult => ({ result: { status: out.status, run: null, dispatch: null, message }, resumedHere: false });
  if (out.status === 'pending') {
    const approvals = out.request.decisions.filter((d) => d.verdict === 'approve').length;
    return decidedOnly(`Recorded. ${approvals} of ${req.quorum} approvals so far; the run waits for the rest.`);
  }
  if (isMcpApproval(req)) {
    // No run waits on it: the MCP client that asked sends the identical call again, and that call
    // is re-checked against the policy and every bound field before it is applied, once.
    return decidedOnly(
      verdict === 'approve'
        ? 'Approved. The MCP client that asked may now send the identical call again; it is re-checked and applied once.'
        : 'Denied. The MCP client is told when it asks again; nothing was written.',
    );
  }
  // The decision is recorded: from here a database that cannot be reached must not read as "not recorded".
  const resumeDecided = async (): Promise<DecidedResult> => {
    const queued = await resumeOnWorker(req.runId, queue);
    if (queued) {
      const waiting = queued.online === 0 ? ' No worker is running yet: it resumes as soon as one starts.' : '';
      const outcome = (await requestOutcomes([await getApprovalOrThrow(prisma, id)])).get(id) ?? null;
      const answer = decidedOnly(
        verdict === 'approve'
          ? `Approved. The run resumes on a worker, which re-checks the call before it is dispatched; its replay shows the outcome.${waiting}`
          : `Denied. A worker tells the run, which finishes without the call; its replay shows the outcome.${waiting}`,
      );
      return { ...answer, result: { ...answer.result, outcome } };
    }
    const { failure, ...resumed } = await resume(req.runId, queue);
    const after = await getApprovalOrThrow(prisma, id);
    const outcome = (await requestOutcomes([after])).get(id) ?? null;
    // What happened to the call comes first: an approval whose write the downstream refused is not a success.
    const finished = resumed.run && resumed.run.status !== 'paused' ? `The run ${verdict === 'approve' ? 'resumed and ' : ''}finished (${resumed.run.terminationReason}).` : null;
    const message = failure
      ? `Your ${verdict === 'approve' ? 'approval' : 'denial'} was recorded, but resuming the run failed (${failure}). Nothing was written; the run will be resumed automatically once the problem is fixed.`
      : resumed.dispatch?.status === 'stale'
        ? `Your ${verdict === 'approve' ? 'approval' : 'denial'} was recorded, but the call was refused at dispatch: the approval is stale (${resumed.dispatch.field} changed). ${resumed.dispatch.message}`
        : resumed.dispatch?.status === 'expired'
          ? `Recorded, but the approval expired before the call could be dispatched.`
          : outcome?.phase === 'finished' && finished
            ? `${sentence(outcome)}. ${finished}`
            : verdict === 'approve'
              ? `Approved. ${resumed.run ? `The run resumed and ${resumed.run.status === 'paused' ? 'paused again for another approval' : `finished (${resumed.run.terminationReason})`}.` : 'The run is being resumed elsewhere.'}`
              : `Denied. ${resumed.run ? `The run was told and finished (${resumed.run.terminationReason}).` : 'The run is being resumed elsewhere.'}`;
    return { result: { status: after.status, ...resumed, message, outcome }, resumedHere: true };
  };
  try {
    return await resumeDecided();
  } catch (err) {
    if (!isDatabaseUnavailable(err)) throw err;
    return decidedOnly(
      `Your ${verdict === 'approve' ? 'approval' : 'denial'} was recorded, but the database became unavailable before the run could go on; it is resumed automatically once the database is back.`,
    );
  }
}
