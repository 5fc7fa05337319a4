/**
 * The governance service: starts a run under a policy, persists it when it pauses for approval,
 * and resumes it — in any process — after re-validating every bound field. The loop itself is the
 * harness's; this only wires the policy, the capability pin, the journal and the evidence around it.
 */
import { randomUUID } from 'node:crypto';
import type { ToolExecutor } from '../harness';
import type { ApprovalResolution, CallPolicy } from '../harness';
import type { JsonValue } from '../harness';
import type { RunResult, ToolCallRequest } from '../harness';
import type { ApprovalRequest } from './approval';
import { GovernedCallPolicy, type DecisionRecord } from './call-policy';
import { pinCapabilities, pinnedTool, schemaDigest, UNLISTED_TOOL_VERSION, type CapabilityPin } from './capability-registry';
import { toolPolicyFor } from './policy-engine';
import { toolSourceOf } from './tool-source';
import { ConflictError, GovernanceError } from './errors';
import { BatchingEvidenceSink } from './batching-evidence-sink';
import { evidenceBody, type EvidenceBody } from './evidence';
import { parseOwner, type GovernanceStore, type NewApprovalRequest, type ResumeOwner, type StoredGovernedRun } from './governance-store';
import { JournaledExecutor, type JournalStep } from './journaled-executor';
import { ApprovedDispatchExecutor } from './approved-dispatch';
import { operationKey as operationKeyOf } from './effect-journal';
import { riskOf } from './policy-engine';
import type { LoadedPolicy } from './policy-file';
import type { Principal, ReviewerIdentity } from './principal';
import { firstChangedField, proposalDigest, type BoundProposal } from './proposal';
import { redact } from './redact';
import { hasOperationLookup, operationReconciler } from './reconcile';

import { revalidate, type Revalidation } from './revalidate';

/**
 * How long a resume run outside a worker (a server process, which keeps no heartbeat) may go without
 * progress before another process may take the run over. A resume on a worker is held through the job
 * engine's lease instead (ResumeOwner) and is taken over as soon as its owner is gone.
 */
export const RESUME_LEASE_MS = 5 * 60_000;

/** Runs the agent: given the (journaled) executor and the policy, runs or resumes. */
export interface AgentDriver {
  run(executor: ToolExecutor, policy: CallPolicy, operationKey: (c: ToolCallRequest) => string | undefined, runId: string): Promise<RunResult>;
  resume(executor: ToolExecutor, policy: CallPolicy, operationKey: (c: ToolCallRequest) => string | undefined, paused: RunResult, resolution: ApprovalResolution): Promise<RunResult>;
}

export interface GovernedContext {
  store: GovernanceStore;
  policy: LoadedPolicy;
  /** The downstream tools (local or MCP), before journaling. */
  executor: ToolExecutor;
  driver: AgentDriver;
  now?: () => Date;
  /** The job lease this segment runs under (absent outside a worker). */
  owner?: ResumeOwner;
  /** Told after each step of a write is stored (instructor mode's worker-kill drill). */
  afterStep?: (step: JournalStep) => Promise<void>;
}

export interface GovernedOutcome {
  runId: string;
  result: RunResult;
  approval: ApprovalRequest | null;
  revalidation?: Revalidation;
}

/** The server a pin's tools came from (one executor, one server), undefined for an unnamed source. */
function pinServer(pin: CapabilityPin): string | undefined {
  return pin.tools.find((t) => t.server !== undefined)?.server;
}

/**
 * The policy and the journaled executor of one segment. `approved` (a resume after an approval)
 * names the approved call, whose dispatch then carries the approval to the downstream.
 */
function wire(ctx: GovernedContext, runId: string, pin: CapabilityPin, principal: Principal, runTenant: string, approved?: { callId: string; tool: string; approvalId: string }) {
  const server = pinServer(pin);
  const policy = new GovernedCallPolicy({ policy: ctx.policy, pin, principal, runTenant, ...(server !== undefined ? { server } : {}) });
  const toolVersion = (t: string) => pinnedTool(pin, t, server)?.version ?? UNLISTED_TOOL_VERSION;
  const approvedKey = approved ? operationKeyOf({ runId, callId: approved.callId, tool: approved.tool, toolVersion: toolVersion(approved.tool) }) : null;
  const downstream = approved && approvedKey ? new ApprovedDispatchExecutor(ctx.executor, { operationKey: approvedKey, approvalId: approved.approvalId }) : ctx.executor;
  const journaled = new JournaledExecutor(downstream, {
    store: ctx.store.journal,
    runId,
    isWrite: (t) => riskOf(ctx.policy, t, server, pinnedTool(pin, t, server)) !== 'read',
    toolVersion,
    evidence: ctx.store.evidence,
    policyVersion: ctx.policy.version,
    now: ctx.now,
    reconciler: hasOperationLookup(ctx.executor) ? operationReconciler(ctx.executor) : undefined,
    // A write reconciliation found never applied is sent again under its key only as the approved
    // call of this resume: its approval was re-validated when the resume began (same digest, not
    // expired) and the call is checked against the digest again just before dispatch.
    redispatchAbsent: (key) => key === approvedKey,
    afterStep: ctx.afterStep,
  });
  return { policy, journaled, operationKey: (c: ToolCallRequest) => journaled.operationKey(c) };
}

async function recordDecisions(ctx: GovernedContext, runId: string, decisions: DecisionRecord[], actor: string, args: Map<string, JsonValue>): Promise<void> {
  for (const d of decisions) {
    await ctx.store.evidence.append(
      evidenceBody({
        kind: 'policy_decision',
        at: (ctx.now?.() ?? new Date()).toISOString(),
        runId,
        step: d.step,
        callId: d.callId,
        tool: d.tool,
        toolVersion: d.toolVersion,
        policyVersion: d.decision.policyVersion,
        decision: d.decision.decision,
        rule: d.decision.rule,
        argumentsDigest: d.argumentsDigest,
        redactions: redact(args.get(d.callId) ?? null).redactions,
        actor,
        // The evidence of a decision taken in a tainted run says where the run read the planted text.
        detail: d.taint ? `run tainted at step ${d.taint.step}: an instruction planted in ${d.taint.tool} (${d.taint.detector})` : null,
      }),
    );
  }
}

function callArguments(result: RunResult): Map<string, JsonValue> {
  const m = new Map<string, JsonValue>();
  for (const s of result.trajectory) if (s.kind === 'model_turn') for (const c of s.toolCalls) m.set(c.toolUseId, c.arguments);
  return m;
}

/** An approval request made when a segment paused, not stored yet, and when it was made. */
interface PendingApproval {
  request: NewApprovalRequest;
  now: Date;
  /** Its approval_requested evidence, appended once the request is stored (with it, in a start). */
  requested: EvidenceBody;
}

/**
 * After a run segment: evidence for its decisions, and when it paused the approval request (bound to
 * its proposal's digest) and its approval_requested evidence, both returned unstored: a start stores
 * them with its run and evidence in one transaction, a resume one after the other (storeApproval).
 */
async function settle(ctx: GovernedContext, runId: string, principal: Principal, runTenant: string, pin: CapabilityPin, policy: GovernedCallPolicy, result: RunResult): Promise<PendingApproval | null> {
  const decisions = policy.drain();
  await recordDecisions(ctx, runId, decisions, principal.subject, callArguments(result));
  const cp = result.checkpoint;
  if (result.status !== 'paused' || !cp) return null;
  const now = ctx.now?.() ?? new Date();
  const decided = decisions.findLast((d) => d.callId === cp.awaiting.toolUseId);
  const terms = decided?.decision.decision === 'approval_required' ? decided.decision.approval : null;
  if (!terms) throw new GovernanceError('no_terms', `run ${runId} paused on ${cp.awaiting.name} without approval terms`);
  const pinned = pinnedTool(pin, cp.awaiting.name, pinServer(pin));
  const proposal: BoundProposal = {
    actor: principal.subject,
    tenant: runTenant,
    tool: cp.awaiting.name,
    toolVersion: pinned?.version ?? UNLISTED_TOOL_VERSION,
    schemaDigest: pinned?.schemaDigest ?? '',
    arguments: cp.awaiting.arguments,
    policyVersion: cp.awaiting.policyVersion,
    expiresAt: new Date(now.getTime() + terms.ttlSeconds * 1000).toISOString(),
  };
  const request: NewApprovalRequest = {
    id: `apr_${randomUUID()}`,
    runId,
    callId: cp.awaiting.toolUseId,
    step: cp.step,
    rule: cp.awaiting.rule,
    message: cp.awaiting.message,
    approverRole: terms.approverRole,
    quorum: terms.quorum,
    proposal,
    digest: proposalDigest(proposal),
  };
  const requested = evidenceBody({
    kind: 'approval_requested',
    at: now.toISOString(),
    runId,
    step: cp.step,
    callId: cp.awaiting.toolUseId,
    tool: proposal.tool,
    toolVersion: proposal.toolVersion,
    policyVersion: proposal.policyVersion,
    decision: 'approval_required',
    rule: cp.awaiting.rule,
    argumentsDigest: decided?.argumentsDigest ?? null,
    actor: principal.subject,
    detail: `digest ${request.digest}`,
  });
  return { request, now, requested };
}

/** Stores a new approval request on its own, then appends its evidence (held in the segment's batch). */
async function storeApproval(ctx: GovernedContext, pending: PendingApproval | null): Promise<ApprovalRequest | null> {
  if (!pending) return null;
  const approval = await ctx.store.createApproval(pending.request, pending.now);
  await ctx.store.evidence.append(pending.requested);
  return approval;
}

/**
 * Runs one segment (a start or a resume) with its evidence batched: stored before any write is
 * dispatched and when the segment ends, whether it ends well or not.
 */
async function segment<T>(ctx: GovernedContext, work: (ctx: GovernedContext, evidence: BatchingEvidenceSink) => Promise<T>): Promise<T> {
  const evidence = new BatchingEvidenceSink(ctx.store.evidence);
  const batched: GovernedContext = { ...ctx, store: { ...ctx.store, evidence } };
  let out: T;
  try {
    out = await work(batched, evidence);
  } catch (err) {
    await evidence.flush().catch(() => undefined);
    throw err;
  }
  await evidence.flush();
  return out;
}

/** Starts a run under the policy, for `principal`, on `runTenant`'s data. */
export function startGovernedRun(ctx: GovernedContext, input: { principal: Principal; runTenant: string; spec: JsonValue; runId?: string }): Promise<GovernedOutcome> {
  return segment(ctx, (c, evidence) => startSegment(c, input, evidence));
}

async function startSegment(
  ctx: GovernedContext,
  input: { principal: Principal; runTenant: string; spec: JsonValue; runId?: string },
  evidence: BatchingEvidenceSink,
): Promise<GovernedOutcome> {
  const runId = input.runId ?? randomUUID();
  const now = ctx.now?.() ?? new Date();
  const pin = pinCapabilities(await ctx.executor.listSpecs(), ctx.policy, now.toISOString(), await toolSourceOf(ctx.executor));
  const { policy, journaled, operationKey } = wire(ctx, runId, pin, input.principal, input.runTenant);
  await ctx.store.evidence.append(evidenceBody({ kind: 'run_started', at: now.toISOString(), runId, policyVersion: ctx.policy.version, actor: input.principal.subject }));
  const result = await ctx.driver.run(journaled, policy, operationKey, runId);
  const pending = await settle(ctx, runId, input.principal, input.runTenant, pin, policy, result);
  const run = { runId, status: pending ? ('paused' as const) : ('finished' as const), principal: input.principal, pin, policyVersion: ctx.policy.version, spec: input.spec, result };
  const finished = () => evidenceBody({ kind: 'run_finished', at: (ctx.now?.() ?? new Date()).toISOString(), runId, decision: result.terminationReason });
  if (!ctx.store.commitStart) {
    const approval = await storeApproval(ctx, pending);
    await ctx.store.createRun(run);
    if (!approval) await ctx.store.evidence.append(finished());
    return { runId, result, approval };
  }
  // One transaction for the request, the run and the evidence still held (issue 36: a start was
  // several, and 50 concurrent starts were bound by their cost). Should it fail, the decisions'
  // evidence is held again so the segment still stores it; the request's and the end's are not, as
  // what they record was not stored.
  const held = evidence.take();
  try {
    const approval = await ctx.store.commitStart({ run, approval: pending, evidence: [...held, pending ? pending.requested : finished()] });
    return { runId, result, approval };
  } catch (err) {
    evidence.putBack(held);
    throw err;
  }
}

/** The proposal as it would be bound now: today's policy version and tool schema. */
async function currentProposal(ctx: GovernedContext, req: ApprovalRequest, awaitingArgs: JsonValue, server: string | undefined): Promise<Omit<BoundProposal, 'expiresAt'>> {
  const spec = (await ctx.executor.listSpecs()).find((s) => s.name === req.proposal.tool);
  return {
    actor: req.proposal.actor,
    tenant: req.proposal.tenant,
    tool: req.proposal.tool,
    toolVersion: toolPolicyFor(ctx.policy, req.proposal.tool, server)?.version ?? UNLISTED_TOOL_VERSION,
    schemaDigest: spec ? schemaDigest(spec) : '(tool no longer listed)',
    arguments: awaitingArgs,
    policyVersion: ctx.policy.version,
  };
}

/**
 * The check run immediately before the approved call is dispatched: the call about to be sent
 * (whatever the stored checkpoint says) must hash, with the rest of the bound proposal, to the
 * approved digest. A mismatch is refused as stale, naming the first differing field.
 */
function dispatchCheck(req: ApprovalRequest): { confirm: (call: { toolUseId: string; name: string; arguments: JsonValue }) => string | null; refused: { field: string; message: string } | null } {
  const out: ReturnType<typeof dispatchCheck> = {
    refused: null,
    confirm: (call) => {
      const sent: BoundProposal = { ...req.proposal, tool: call.name, arguments: call.arguments };
      const field = call.toolUseId !== req.callId ? 'callId' : proposalDigest(sent) !== req.digest ? (firstChangedField(req.proposal, sent) ?? 'digest') : null;
      if (!field) return null;
      const message = `the approval no longer matches (${field} changed): the call about to be dispatched is not the call that was approved`;
      out.refused = { field, message };
      return message;
    },
  };
  return out;
}

/**
 * Resumes a paused run once its request is decided (or expired). Claims the run by compare-and-set
 * first: a second worker gets ConflictError. Re-validates, records the outcome, and continues the loop.
 */
export function resumeGovernedRun(ctx: GovernedContext, runId: string): Promise<GovernedOutcome> {
  return segment(ctx, (c) => resumeSegment(c, runId));
}

/**
 * Whether a run left `resuming` may be taken over now: its owner is gone (the job engine's lease), or,
 * for a resume without an owner (run in a server process), it made no progress for RESUME_LEASE_MS.
 * The next attempt of the owner's own job is its successor: the earlier attempt is over.
 */
async function abandoned(ctx: GovernedContext, stored: StoredGovernedRun, now: Date): Promise<boolean> {
  const owner = stored.owner ? parseOwner(stored.owner) : null;
  if (!owner) return now.getTime() - Date.parse(stored.updatedAt) > RESUME_LEASE_MS;
  if (ctx.owner && ctx.owner.jobId === owner.jobId) return true;
  return ctx.store.ownerGone(owner);
}

/** When the approved call of a run's request was first sent (journal), or null when it never was. */
async function approvedCallSentAt(ctx: GovernedContext, runId: string, stored: StoredGovernedRun, req: ApprovalRequest): Promise<Date | null> {
  const toolVersion = pinnedTool(stored.pin, req.proposal.tool, pinServer(stored.pin))?.version ?? UNLISTED_TOOL_VERSION;
  const entry = await ctx.store.journal.get(operationKeyOf({ runId, callId: req.callId, tool: req.proposal.tool, toolVersion }));
  return entry && entry.status !== 'prepared' ? new Date(entry.createdAt) : null;
}

async function resumeSegment(ctx: GovernedContext, runId: string): Promise<GovernedOutcome> {
  const stored = await ctx.store.getRun(runId);
  const cp = stored.result.checkpoint;
  const clock = ctx.now?.() ?? new Date();
  // A resume whose worker died leaves the run `resuming`; once its owner is gone another attempt takes
  // it over. Re-running the awaited call is safe: the effect journal answers for it (and reconciles a
  // write the dead worker left dispatched).
  const takeover = stored.status === 'resuming' && (await abandoned(ctx, stored, clock));
  if ((stored.status !== 'paused' && !takeover) || !cp) {
    throw new ConflictError('run', runId, `run ${runId} is ${stored.status}, not paused`);
  }
  const req = await ctx.store.findApproval(runId, cp.awaiting.toolUseId);
  if (!req) throw new GovernanceError('no_request', `run ${runId} has no approval request for ${cp.awaiting.toolUseId}`);
  const now = ctx.now?.() ?? new Date();
  const expiredPending = req.status === 'pending' && now.getTime() >= Date.parse(req.proposal.expiresAt);
  if (req.status === 'pending' && !expiredPending) throw new GovernanceError('still_pending', `the approval request for run ${runId} is still pending`);

  const claim = { status: 'resuming' as const, expectedStatus: stored.status, owner: ctx.owner ?? null, ...(takeover ? { takenOverAt: now } : {}) };
  if (!(await ctx.store.updateRun(runId, stored.stateVersion, claim))) {
    throw new ConflictError('run', runId, `run ${runId} was already resumed by another worker`);
  }
  const approvers = new Map<string, ReviewerIdentity>();
  for (const d of req.decisions) {
    const who = await ctx.store.identity(d.reviewerId);
    if (who) approvers.set(d.reviewerId, who);
  }
  // Taken over after the approved call was already sent: the approval held when it was sent, so it
  // is checked as of then (an approval that expired since must not hide a write that happened).
  const sentAt = takeover ? await approvedCallSentAt(ctx, runId, stored, req) : null;
  let checked = revalidate(expiredPending ? { ...req, status: 'expired' } : req, {
    current: await currentProposal(ctx, req, cp.awaiting.arguments, pinServer(stored.pin)),
    now: sentAt && sentAt < now ? sentAt : now,
    approvers,
  });
  if (checked.status !== req.status) await ctx.store.setApprovalOutcome(req.id, req.stateVersion, checked.status, checked.resolution.outcome === 'approved' ? 'approved' : checked.resolution.message, now);
  await ctx.store.evidence.append(
    evidenceBody({
      kind: 'revalidated',
      at: now.toISOString(),
      runId,
      step: cp.step,
      callId: req.callId,
      tool: req.proposal.tool,
      toolVersion: req.proposal.toolVersion,
      policyVersion: ctx.policy.version,
      decision: checked.status,
      rule: req.rule,
      detail: checked.field ? `changed: ${checked.field}` : null,
    }),
  );

  const approved = checked.resolution.outcome === 'approved' ? { callId: req.callId, tool: req.proposal.tool, approvalId: req.id } : undefined;
  const { policy, journaled, operationKey } = wire(ctx, runId, stored.pin, stored.principal, req.proposal.tenant, approved);
  const atDispatch = dispatchCheck(req);
  const resolution: ApprovalResolution = checked.resolution.outcome === 'approved' ? { outcome: 'approved', confirm: atDispatch.confirm } : checked.resolution;
  const result = await ctx.driver.resume(journaled, policy, operationKey, stored.result, resolution);
  if (atDispatch.refused) {
    const { field, message } = atDispatch.refused;
    await ctx.store.setApprovalOutcome(req.id, req.stateVersion, 'stale', `at dispatch: ${field} changed`, now);
    await ctx.store.evidence.append(
      evidenceBody({
        kind: 'revalidated',
        at: (ctx.now?.() ?? new Date()).toISOString(),
        runId,
        step: cp.step,
        callId: req.callId,
        tool: req.proposal.tool,
        toolVersion: req.proposal.toolVersion,
        policyVersion: ctx.policy.version,
        decision: 'stale',
        rule: req.rule,
        detail: `at dispatch: changed: ${field}`,
      }),
    );
    checked = { status: 'stale', field, resolution: { outcome: 'stale', message } };
  }
  const approval = await storeApproval(ctx, await settle(ctx, runId, stored.principal, req.proposal.tenant, stored.pin, policy, result));
  const saved = await ctx.store.updateRun(runId, stored.stateVersion + 1, { status: approval ? 'paused' : 'finished', result, expectedStatus: 'resuming' });
  if (!saved) throw new ConflictError('run', runId, `run ${runId} changed while it was being resumed`);
  if (!approval) await ctx.store.evidence.append(evidenceBody({ kind: 'run_finished', at: (ctx.now?.() ?? new Date()).toISOString(), runId, decision: result.terminationReason }));
  return { runId, result, approval, revalidation: checked };
}
