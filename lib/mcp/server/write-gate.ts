/**
 * What stands between an MCP client and a Stockroom write. The harness's own servers leave writes
 * open (the harness governs its runs itself); a server for outside clients either refuses every
 * write or sends it through the governance policy, the effect journal and the evidence chain, as a
 * governed run would. Reads are never gated here: a caller that reached the server is authorized.
 */
import { randomUUID } from 'node:crypto';
import type { ToolExecutor, ToolResult } from '../../harness';
import type { JsonValue } from '../../harness';
import { pyJson } from '../../harness';
import { canonicalDigest } from '../../governance';
import type { JournalStore } from '../../governance';
import { evidenceBody, type EvidenceSink } from '../../governance';
import { JournaledExecutor } from '../../governance';
import { evaluatePolicy, riskOf, toolPolicyFor } from '../../governance';
import { UNLISTED_TOOL_VERSION } from '../../governance';
import { McpApprovals, type McpApprovalStore } from './mcp-approvals';
import type { LoadedPolicy } from '../../governance';
import type { Principal } from '../../governance';
import { tightenForTaint } from '../../governance';
import type { CallerTaint } from './caller-taint';

/** One write as the server received it. */
export interface GatedWrite {
  name: string;
  args: JsonValue;
  /** The caller's idempotency key (`_meta`), when it sent one. */
  operationKey?: string;
  /** The schema digest of the tool as this server lists it (what an approval binds). */
  schemaDigest: string;
  /** The approval request the caller names (`_meta`), when it names one. */
  approvalRequestId?: string;
}

/** Sends the write to the environment once the gate lets it through. */
/** Sends the write on; `approvalId` is the reviewer's approval of this very call, when it had one. */
export type Dispatch = (operationKey: string | undefined, approvalId?: string) => Promise<ToolResult>;

export interface WriteGate {
  /** Short label for logs and the initialize result: `open`, `refused`, `governed`. */
  readonly mode: 'open' | 'refused' | 'governed';
  /** Whether `name` is a write; `readOnlyHint` is the server's own suggestion, a policy overrides it. */
  isWrite(name: string, readOnlyHint: boolean): boolean;
  write(call: GatedWrite, dispatch: Dispatch): Promise<ToolResult>;
  /** Present when writes that need approval are queued for a reviewer: answers `approval_status`. */
  approvalStatus?(requestId: JsonValue): Promise<ToolResult>;
  /** Told every tool call's result (reads and writes), when the gate keeps the caller's taint. */
  observe?(name: string, result: ToolResult, write: boolean): void;
}

function refusal(error: string, fields: Record<string, JsonValue>): ToolResult {
  const content = { error, ...fields };
  return { content, isError: true, errorCode: error, payloadChars: pyJson(content).length };
}

/** The harness's own servers: the harness runs its own policy and journal around every call. */
export const OPEN_WRITES: WriteGate = {
  mode: 'open',
  isWrite: (_name, readOnlyHint) => !readOnlyHint,
  write: (call, dispatch) => dispatch(call.operationKey),
};

/** Every write refused with `reason` (a server started without a policy file). */
export function refusingWrites(reason: string): WriteGate {
  return {
    mode: 'refused',
    isWrite: (_name, readOnlyHint) => !readOnlyHint,
    write: async (call) => refusal('write_refused', { tool: call.name, message: reason }),
  };
}

export interface GovernedWritesOptions {
  policy: LoadedPolicy;
  /** Who the MCP caller acts as. */
  principal: Principal;
  /** The tenant whose inventory the server's dataset is. */
  runTenant: string;
  journal: JournalStore;
  evidence: EvidenceSink;
  /** Groups this caller's writes in the journal and the evidence, like a run id (`mcp:<session>`). */
  runId: string;
  now?: () => Date;
  /**
   * Where a write that needs approval is queued for the dashboard's reviewers. Without it such a
   * write is refused naming the rule (a server with no database has no reviewers).
   */
  approvals?: McpApprovalStore;
  /**
   * The caller's taint (caller-taint.ts): once a read of theirs carried planted instructions, every
   * write waits for a reviewer even where the policy allows it, and the request says why.
   */
  taint?: CallerTaint;
}

/**
 * Writes decided by the policy file: `allow` runs through the effect journal (at most once per
 * operation key) with evidence; `deny` is refused as a structured result naming the rule. A write
 * that needs a reviewer becomes an approval request when the gate has an approval store (see
 * mcp-approvals.ts) and is refused naming the rule when it has none.
 */
export class GovernedWrites implements WriteGate {
  readonly mode = 'governed' as const;
  private readonly approvals: McpApprovals | null;

  constructor(private readonly options: GovernedWritesOptions) {
    this.approvals = options.approvals ? new McpApprovals(options.approvals, options.runId) : null;
    if (this.approvals) {
      const approvals = this.approvals;
      this.approvalStatus = (id) => approvals.status(id, options.principal.tenant, options.now?.() ?? new Date());
    }
  }

  approvalStatus?: (requestId: JsonValue) => Promise<ToolResult>;

  observe(name: string, result: ToolResult, write: boolean): void {
    this.options.taint?.observe(name, result, write);
  }

  isWrite(name: string, readOnlyHint: boolean): boolean {
    const risk = riskOf(this.options.policy, name);
    return risk === null ? !readOnlyHint : risk === 'write';
  }

  private at(): string {
    return (this.options.now?.() ?? new Date()).toISOString();
  }

  async write(call: GatedWrite, dispatch: Dispatch): Promise<ToolResult> {
    const { policy, principal, runTenant, runId, evidence } = this.options;
    const callId = call.operationKey ?? randomUUID();
    const decision = tightenForTaint(evaluatePolicy(policy, { tool: call.name, arguments: call.args, principal, runTenant }), this.options.taint?.current() ?? null, true, policy);
    await evidence.append(
      evidenceBody({
        kind: 'policy_decision',
        at: this.at(),
        runId,
        callId,
        tool: call.name,
        toolVersion: policy.document.tools[call.name]?.version ?? null,
        policyVersion: decision.policyVersion,
        decision: decision.decision,
        rule: decision.rule,
        argumentsDigest: canonicalDigest(call.args),
        actor: principal.subject,
        detail: 'over MCP',
      }),
    );
    if (decision.decision === 'deny') {
      return refusal('policy_denied', { tool: call.name, rule: decision.rule, message: decision.message, applied: false });
    }
    let callKey = callId;
    let approvalId: string | undefined;
    if (decision.decision === 'approval_required' && this.approvals) {
      const step = await this.approvals.step({
        base: {
          actor: principal.subject,
          tenant: runTenant,
          tool: call.name,
          toolVersion: toolPolicyFor(policy, call.name)?.version ?? UNLISTED_TOOL_VERSION,
          schemaDigest: call.schemaDigest,
          arguments: call.args,
          policyVersion: policy.version,
        },
        terms: decision.approval,
        rule: decision.rule,
        message: decision.message,
        ...(call.approvalRequestId !== undefined ? { requestId: call.approvalRequestId } : {}),
        now: this.options.now?.() ?? new Date(),
      });
      if (step.kind === 'answer') {
        if (step.created && step.request) {
          await evidence.append(
            evidenceBody({
              kind: 'approval_requested',
              at: this.at(),
              runId,
              callId: step.request.callId,
              tool: call.name,
              toolVersion: step.request.proposal.toolVersion,
              policyVersion: step.request.proposal.policyVersion,
              decision: 'approval_required',
              rule: decision.rule,
              argumentsDigest: canonicalDigest(call.args),
              actor: principal.subject,
              detail: `over MCP: request ${step.request.id}, digest ${step.request.digest}`,
            }),
          );
        }
        return step.result;
      }
      // Approved and re-validated: the request's id makes the operation key, so a retry never writes twice.
      callKey = step.request.id;
      approvalId = step.request.id;
    } else if (decision.decision === 'approval_required') {
      return refusal('approval_required', {
        tool: call.name,
        rule: decision.rule,
        approver_role: decision.approval.approverRole,
        applied: false,
        message: `${decision.message}; this MCP server has no approval queue, so the write was not applied (start a governed run from the dashboard to ask a ${decision.approval.approverRole})`,
      });
    }
    const downstream: ToolExecutor = {
      transport: 'mcp-server',
      listSpecs: async () => [],
      call: (_name, _args, context) => dispatch(context?.operationKey, approvalId),
      reset: async () => {},
      close: async () => {},
    };
    const journaled = new JournaledExecutor(downstream, {
      store: this.options.journal,
      runId,
      isWrite: () => true,
      toolVersion: (t) => policy.document.tools[t]?.version ?? 'unlisted',
      evidence,
      policyVersion: policy.version,
      now: this.options.now,
    });
    const key = journaled.operationKey({ toolUseId: callKey, name: call.name, arguments: call.args });
    return journaled.call(call.name, call.args, { operationKey: key });
  }
}
