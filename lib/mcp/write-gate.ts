/**
 * What stands between an MCP client and a Stockroom write. The harness's own servers leave writes
 * open (the harness governs its runs itself); a server for outside clients either refuses every
 * write or sends it through the governance policy, the effect journal and the evidence chain, as a
 * governed run would. Reads are never gated here: a caller that reached the server is authorized.
 */
import { randomUUID } from 'node:crypto';
import type { ToolExecutor, ToolResult } from '../harness/executor';
import type { JsonValue } from '../harness/json';
import { pyJson } from '../harness/pyjson';
import { canonicalDigest } from '../governance/canonical-json';
import type { JournalStore } from '../governance/effect-journal';
import { evidenceBody, type EvidenceSink } from '../governance/evidence';
import { JournaledExecutor } from '../governance/journaled-executor';
import { evaluatePolicy, riskOf } from '../governance/policy-engine';
import type { LoadedPolicy } from '../governance/policy-file';
import type { Principal } from '../governance/principal';

/** One write as the server received it. */
export interface GatedWrite {
  name: string;
  args: JsonValue;
  /** The caller's idempotency key (`_meta`), when it sent one. */
  operationKey?: string;
}

/** Sends the write to the environment once the gate lets it through. */
export type Dispatch = (operationKey: string | undefined) => Promise<ToolResult>;

export interface WriteGate {
  /** Short label for logs and the initialize result: `open`, `refused`, `governed`. */
  readonly mode: 'open' | 'refused' | 'governed';
  /** Whether `name` is a write; `readOnlyHint` is the server's own suggestion, a policy overrides it. */
  isWrite(name: string, readOnlyHint: boolean): boolean;
  write(call: GatedWrite, dispatch: Dispatch): Promise<ToolResult>;
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
}

/**
 * Writes decided by the policy file: `allow` runs through the effect journal (at most once per
 * operation key) with evidence; `deny` and `approval_required` are refused as structured results
 * naming the rule. There is no approval queue behind an MCP session, so a write that needs a
 * reviewer is not applied; the caller is told to start a governed run instead.
 */
export class GovernedWrites implements WriteGate {
  readonly mode = 'governed' as const;

  constructor(private readonly options: GovernedWritesOptions) {}

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
    const decision = evaluatePolicy(policy, { tool: call.name, arguments: call.args, principal, runTenant });
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
    if (decision.decision === 'approval_required') {
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
      call: (_name, _args, context) => dispatch(context?.operationKey),
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
    const key = journaled.operationKey({ toolUseId: callId, name: call.name, arguments: call.args });
    return journaled.call(call.name, call.args, { operationKey: key });
  }
}
