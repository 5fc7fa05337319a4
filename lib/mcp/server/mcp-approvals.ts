/**
 * Approvals for writes that arrive over MCP, in the same approval requests the dashboard's
 * reviewers decide. A write the policy marks `approval_required` becomes a pending request bound to
 * the digest of the exact proposal (actor, tenant, tool, version, schema digest, arguments, policy
 * version, expiry); the client is told the request id and polls `approval_status`. Once a reviewer
 * approves, the identical call is re-checked (policy, then every bound field) and dispatched through
 * the effect journal under an operation key derived from the request, so it is applied exactly once
 * however often the client retries. A different proposal never rides on an old approval.
 *
 * Requests are found again by the proposal itself: the request's call id is the digest of the
 * proposal without its expiry, plus a counter for a proposal asked again after its request expired
 * or went stale.
 */
import { randomUUID } from 'node:crypto';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ToolResult } from '../../harness';
import type { JsonValue } from '../../harness';
import { pyJson } from '../../harness';
import { effectiveStatus, type ApprovalRequest } from '../../governance';
import { canonicalDigest } from '../../governance';
import type { GovernanceStore } from '../../governance';
import type { ApprovalTerms } from '../../governance';
import { firstChangedField, proposalDigest, type BoundProposal } from '../../governance';
import type { ReviewerIdentity } from '../../governance';
import { revalidate } from '../../governance';

/** The name of the tool an MCP client polls an approval request with. */
export const APPROVAL_STATUS_TOOL_NAME = 'approval_status';

/** Listed only by a server whose writes are queued for reviewers. */
export const APPROVAL_STATUS_TOOL: Tool = {
  name: APPROVAL_STATUS_TOOL_NAME,
  title: 'Approval request status',
  description:
    'Status of an approval request this server created for a write that needs a reviewer (pending, approved, denied, expired, stale, cancelled). Once approved, send the identical write again to apply it.',
  inputSchema: {
    type: 'object',
    properties: { request_id: { type: 'string', description: 'The approval_request_id the write answered with' } },
    required: ['request_id'],
    additionalProperties: false,
  },
  annotations: { title: 'Approval request status', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
};

/** `_meta` key of a tools/call naming the approval request the client means to use. */
export const APPROVAL_REQUEST_META_KEY = 'stockroom.dev/approval-request';

/** Requests asked again for one proposal (after expiry or staleness) before the server refuses. */
export const MAX_REQUESTS_PER_PROPOSAL = 20;

/** What the approval flow needs from storage (lib/db implements it over the dashboard's database). */
export interface McpApprovalStore {
  createApproval: GovernanceStore['createApproval'];
  findApproval: GovernanceStore['findApproval'];
  setApprovalOutcome: GovernanceStore['setApprovalOutcome'];
  identity(userId: string): Promise<ReviewerIdentity | null>;
  /** The request with this id in `tenant`, or null (another tenant's request is not found). */
  approvalInTenant(id: string, tenant: string): Promise<ApprovalRequest | null>;
}

/** The proposal as bound, without its expiry (what identifies "the same call"). */
export type ProposalBase = Omit<BoundProposal, 'expiresAt'>;

/** Prefix of the run id MCP approval requests are filed under (no governed run stands behind them). */
export const MCP_RUN_PREFIX = 'mcp:';

/** Whether an approval request came from an MCP caller rather than a paused governed run. */
export function isMcpApproval(req: Pick<ApprovalRequest, 'runId'>): boolean {
  return req.runId.startsWith(MCP_RUN_PREFIX);
}

export function structured(error: string | null, fields: Record<string, JsonValue>): ToolResult {
  const content = error === null ? fields : { error, ...fields };
  return { content, isError: error !== null, errorCode: error, payloadChars: pyJson(content).length };
}

/** What the client learns about a request (never another tenant's). */
export function describeRequest(req: ApprovalRequest, now: Date): Record<string, JsonValue> {
  const denial = req.decisions.find((d) => d.verdict === 'deny');
  return {
    approval_request_id: req.id,
    status: effectiveStatus(req, now),
    tool: req.proposal.tool,
    arguments: req.proposal.arguments,
    rule: req.rule,
    digest: req.digest,
    expires_at: req.proposal.expiresAt,
    decided_at: req.decidedAt,
    ...(denial ? { reason: denial.reason } : {}),
    ...(req.outcomeDetail ? { detail: req.outcomeDetail } : {}),
  };
}

export type ApprovalStep =
  | { kind: 'answer'; result: ToolResult; request: ApprovalRequest | null; created?: true }
  | { kind: 'dispatch'; request: ApprovalRequest };

export class McpApprovals {
  constructor(
    private readonly store: McpApprovalStore,
    private readonly runId: string,
  ) {}

  private callIdFor(base: ProposalBase, n: number): string {
    return `${canonicalDigest(base)}:${n}`;
  }

  /**
   * Decides what to do with a write that needs approval: ask for one (pending), report the pending
   * or refused request, or — approved and unchanged — dispatch it.
   */
  async step(input: { base: ProposalBase; terms: ApprovalTerms; rule: string; message: string; requestId?: string; now: Date }): Promise<ApprovalStep> {
    const { base, now } = input;
    if (input.requestId !== undefined) return this.named(input.requestId, base, now);
    let latest: ApprovalRequest | null = null;
    let n = 0;
    for (; n < MAX_REQUESTS_PER_PROPOSAL; n += 1) {
      const found = await this.store.findApproval(this.runId, this.callIdFor(base, n));
      if (!found) break;
      latest = found;
    }
    if (latest && !['expired', 'stale', 'cancelled'].includes(effectiveStatus(latest, now))) return this.existing(latest, base, now);
    if (latest && latest.status === 'pending') await this.store.setApprovalOutcome(latest.id, latest.stateVersion, 'expired', `expired at ${latest.proposal.expiresAt}`, now);
    if (n >= MAX_REQUESTS_PER_PROPOSAL) {
      return { kind: 'answer', request: latest, result: structured('approval_unavailable', { tool: base.tool, applied: false, message: `this proposal was asked for approval ${n} times already; ask a reviewer directly` }) };
    }
    const proposal: BoundProposal = { ...base, expiresAt: new Date(now.getTime() + input.terms.ttlSeconds * 1000).toISOString() };
    const callId = this.callIdFor(base, n);
    let request: ApprovalRequest;
    try {
      request = await this.store.createApproval(
        {
          id: `apr_${randomUUID()}`,
          runId: this.runId,
          callId,
          step: 0,
          rule: input.rule,
          message: input.message,
          approverRole: input.terms.approverRole,
          quorum: input.terms.quorum,
          proposal,
          digest: proposalDigest(proposal),
        },
        now,
      );
    } catch (err) {
      // The same call sent twice at once: (runId, callId) is unique, so the other one filed it.
      const filed = await this.store.findApproval(this.runId, callId);
      if (!filed) throw err;
      return this.existing(filed, base, now);
    }
    return {
      kind: 'answer',
      request,
      created: true,
      result: structured('approval_pending', {
        ...describeRequest(request, now),
        applied: false,
        message: `${input.message}: approval request ${request.id} was created for a ${input.terms.approverRole} of ${base.tenant}; poll ${APPROVAL_STATUS_TOOL_NAME} with this id, then send the identical call again`,
      }),
    };
  }

  /** The client named a request: it must be this proposal's, exactly. */
  private async named(id: string, base: ProposalBase, now: Date): Promise<ApprovalStep> {
    const req = await this.store.approvalInTenant(id, base.tenant);
    if (!req || req.runId !== this.runId) {
      return { kind: 'answer', request: null, result: structured('approval_not_found', { approval_request_id: id, applied: false, message: `no approval request ${id} for this caller` }) };
    }
    const changed = firstChangedField(req.proposal, { ...base, expiresAt: req.proposal.expiresAt });
    if (changed) {
      return {
        kind: 'answer',
        request: req,
        result: structured('approval_mismatch', {
          approval_request_id: id,
          field: changed,
          applied: false,
          message: `approval request ${id} was for a different proposal (${changed} changed): an approval applies only to the exact call it was asked for`,
        }),
      };
    }
    return this.existing(req, base, now);
  }

  /** A request for this proposal exists: report it, or re-validate and dispatch an approved one. */
  private async existing(req: ApprovalRequest, base: ProposalBase, now: Date): Promise<ApprovalStep> {
    const status = effectiveStatus(req, now);
    if (status === 'pending') {
      return { kind: 'answer', request: req, result: structured('approval_pending', { ...describeRequest(req, now), applied: false, message: `approval request ${req.id} is still pending` }) };
    }
    if (status !== 'approved') {
      return { kind: 'answer', request: req, result: structured(`approval_${status}`, { ...describeRequest(req, now), applied: false, message: `approval request ${req.id} is ${status}: the write was not applied` }) };
    }
    const approvers = new Map<string, ReviewerIdentity>();
    for (const d of req.decisions) {
      const who = await this.store.identity(d.reviewerId);
      if (who) approvers.set(d.reviewerId, who);
    }
    const checked = revalidate(req, { current: base, now, approvers });
    if (checked.status !== 'approved') {
      const detail = checked.resolution.outcome === 'approved' ? checked.status : checked.resolution.message;
      await this.store.setApprovalOutcome(req.id, req.stateVersion, checked.status, detail, now);
      return { kind: 'answer', request: req, result: structured(`approval_${checked.status}`, { approval_request_id: req.id, ...(checked.field ? { field: checked.field } : {}), applied: false, message: detail }) };
    }
    return { kind: 'dispatch', request: req };
  }

  /** The `approval_status` tool: a request of the caller's tenant, else not found. */
  async status(id: JsonValue, tenant: string, now: Date): Promise<ToolResult> {
    if (typeof id !== 'string' || id.length === 0 || id.length > 200) {
      return structured('bad_arguments', { message: 'bad arguments: request_id must be a non-empty string' });
    }
    const req = await this.store.approvalInTenant(id, tenant);
    if (!req) return structured('approval_not_found', { approval_request_id: id, message: `no approval request ${id}` });
    return structured(null, describeRequest(req, now));
  }
}
