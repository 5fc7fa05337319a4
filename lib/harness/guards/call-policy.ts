/**
 * The call-policy seam (governance): every schema-valid call that its run guards allowed is a
 * proposal; the policy allows it, denies it (the model gets a structured refusal and the run goes
 * on), or requires approval (the run pauses with a checkpoint and no process waits).
 */
import type { JsonValue } from '../json';
import type { ToolRecord, ToolSpec } from '../types';

export type PolicyDecision =
  | { decision: 'allow'; rule: string; policyVersion: string }
  | { decision: 'deny'; rule: string; policyVersion: string; message: string }
  | { decision: 'approval_required'; rule: string; policyVersion: string; message: string };

export interface CallPolicyContext {
  query: string;
  step: number;
  records: readonly ToolRecord[];
}

export interface CallPolicy {
  decide(call: { toolUseId: string; name: string; arguments: JsonValue }, spec: ToolSpec, context: CallPolicyContext): PolicyDecision;
}

/** How a reviewer's decision on a paused call came out, checked by governance before resuming. */
export type ApprovalResolution =
  | {
      outcome: 'approved';
      /**
       * Run on the call immediately before it is dispatched: null when it is exactly the approved
       * call, else why not (the run gets an `approval_stale` refusal and nothing is sent).
       */
      confirm?: (call: { toolUseId: string; name: string; arguments: JsonValue }) => string | null;
    }
  | { outcome: 'denied' | 'expired' | 'stale'; message: string };
