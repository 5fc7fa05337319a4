/**
 * The harness's CallPolicy backed by the governance policy file and the run's capability pin. It
 * refuses drifted and unpinned tools before the policy rules run, and keeps every decision (with its
 * proposal) so the caller can write evidence after the loop returns — decide() must stay synchronous.
 */
import type { CallPolicy, PolicyDecision } from '../harness';
import type { JsonValue } from '../harness';
import type { ToolRecord, ToolSpec } from '../harness';
import { canonicalDigest } from './canonical-json';
import { checkDrift, toolLabel, UNLISTED_TOOL_VERSION, type CapabilityPin } from './capability-registry';
import { BUILTIN_RULES, evaluatePolicy, toolPolicyFor, type GovernanceDecision } from './policy-engine';
import type { LoadedPolicy } from './policy-file';
import type { Principal } from './principal';

/** A decision together with the proposal it was made on. */
export interface DecisionRecord {
  step: number;
  callId: string;
  tool: string;
  toolVersion: string;
  schemaDigest: string;
  argumentsDigest: string;
  decision: GovernanceDecision;
  /** Where the run had read planted instructions when this call was decided (null: it had not). */
  taint: { step: number; tool: string; detector: string } | null;
}

export interface GovernedPolicyOptions {
  policy: LoadedPolicy;
  pin: CapabilityPin;
  principal: Principal;
  runTenant: string;
  /** The tool server the run's tools come from (as pinned); undefined for an unnamed source. */
  server?: string;
}

export class GovernedCallPolicy implements CallPolicy {
  /** Every decision made so far, in order (drained by the governance service). */
  readonly decisions: DecisionRecord[] = [];

  constructor(readonly options: GovernedPolicyOptions) {}

  /** Decides a call in full (drift, then the policy), with the approval terms. */
  evaluate(call: { toolUseId: string; name: string; arguments: JsonValue }, spec: ToolSpec): { decision: GovernanceDecision; toolVersion: string; schemaDigest: string } {
    const { policy, pin, principal, runTenant, server } = this.options;
    const drift = checkDrift(pin, spec, server);
    const toolVersion = drift.ok ? drift.pinned.version : (toolPolicyFor(policy, call.name, server)?.version ?? UNLISTED_TOOL_VERSION);
    const label = toolLabel(call.name, server);
    if (!drift.ok) {
      const decision: GovernanceDecision =
        drift.reason === 'drift'
          ? {
              decision: 'deny',
              rule: BUILTIN_RULES.schemaDrift,
              policyVersion: policy.version,
              message: `the schema of ${label} changed after the run started (pinned ${drift.pinned.schemaDigest.slice(0, 12)}, now ${drift.current.slice(0, 12)})`,
            }
          : { decision: 'deny', rule: BUILTIN_RULES.unpinnedTool, policyVersion: policy.version, message: `${label} was not available when the run started` };
      return { decision, toolVersion, schemaDigest: drift.current };
    }
    const { readOnlyHint, destructiveHint } = drift.pinned;
    const hints = { ...(readOnlyHint !== undefined ? { readOnlyHint } : {}), ...(destructiveHint !== undefined ? { destructiveHint } : {}) };
    const decision = evaluatePolicy(policy, { tool: call.name, arguments: call.arguments, principal, runTenant, ...(server !== undefined ? { server } : {}), hints });
    return { decision, toolVersion, schemaDigest: drift.pinned.schemaDigest };
  }

  decide(call: { toolUseId: string; name: string; arguments: JsonValue }, spec: ToolSpec, context: { step: number; records?: readonly ToolRecord[] }): PolicyDecision {
    const evaluated = this.evaluate(call, spec);
    const { toolVersion, schemaDigest } = evaluated;
    const taint = taintedAt(context.records ?? []);
    const decision = tightenForTaint(evaluated.decision, taint, this.isWrite(call.name, spec), this.options.policy);
    this.decisions.push({
      step: context.step,
      callId: call.toolUseId,
      tool: call.name,
      toolVersion,
      schemaDigest,
      argumentsDigest: canonicalDigest(call.arguments),
      decision,
      taint,
    });
    if (decision.decision === 'allow') return decision;
    return { decision: decision.decision, rule: decision.rule, policyVersion: decision.policyVersion, message: decision.message };
  }

  /** Whether the tool writes: the policy's risk class, else (unlisted) anything its server does not mark read-only. */
  isWrite(name: string, spec: ToolSpec): boolean {
    const listed = toolPolicyFor(this.options.policy, name, this.options.server);
    if (listed) return listed.risk === 'write';
    const drift = checkDrift(this.options.pin, spec, this.options.server);
    return !(drift.ok && drift.pinned.readOnlyHint === true);
  }

  /** Removes and returns the decisions recorded since the last drain. */
  drain(): DecisionRecord[] {
    return this.decisions.splice(0, this.decisions.length);
  }
}

/** The rule a tainted run's write is held under when the policy alone would have allowed it. */
export const TAINTED_RUN_RULE = 'tainted-run';

/** Where the run first read planted instructions (null: it has not). */
export function taintedAt(records: readonly ToolRecord[]): { step: number; tool: string; detector: string } | null {
  const first = records.find((r) => r.taint);
  return first?.taint ? { step: first.step, tool: first.name, detector: first.taint.detector } : null;
}

/**
 * A run that read planted instructions keeps no write privilege of its own: a write the policy
 * allows needs a reviewer's approval, and one that already needed it says why the run is suspect.
 * Denials stay denials; reads are untouched.
 */
export function tightenForTaint(
  decision: GovernanceDecision,
  taint: { step: number; tool: string; detector: string } | null,
  write: boolean,
  policy: LoadedPolicy,
): GovernanceDecision {
  if (!taint || !write || decision.decision === 'deny') return decision;
  const why = `tainted at step ${taint.step}: an instruction planted in ${taint.tool} (${taint.detector === 'quarantine' ? 'the quarantine detector' : 'the no_injection guardrail'} flagged it), so every write waits for a person`;
  if (decision.decision === 'approval_required') return { ...decision, message: `${why}; ${decision.message}` };
  return {
    decision: 'approval_required',
    rule: TAINTED_RUN_RULE,
    policyVersion: decision.policyVersion,
    message: why,
    approval: { approverRole: 'reviewer', quorum: 1, ttlSeconds: policy.document.approvalTtlSeconds },
  };
}
