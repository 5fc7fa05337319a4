import { describe, expect, it } from 'vitest';
import { taintedAt, tightenForTaint, TAINTED_RUN_RULE } from './call-policy';
import type { LoadedPolicy } from './policy-file';

const policy = { version: 'v1', document: { approvalTtlSeconds: 3600 } } as unknown as LoadedPolicy;
const taint = { step: 3, tool: 'search_policy_docs', detector: 'quarantine' };
const allow = { decision: 'allow', rule: 'default-allow', policyVersion: 'v1' } as const;

describe('tightening a tainted run', () => {
  it('turns an allowed write into one that needs a reviewer, saying where the run was tainted', () => {
    expect(tightenForTaint(allow, taint, true, policy)).toEqual({
      decision: 'approval_required',
      rule: TAINTED_RUN_RULE,
      policyVersion: 'v1',
      message: 'tainted at step 3: an instruction planted in search_policy_docs (the quarantine detector flagged it), so every write waits for a person',
      approval: { approverRole: 'reviewer', quorum: 1, ttlSeconds: 3600 },
    });
  });

  it('leaves reads, denials and untainted runs as the policy decided; keeps an approval rule’s own terms', () => {
    expect(tightenForTaint(allow, taint, false, policy)).toBe(allow);
    expect(tightenForTaint(allow, null, true, policy)).toBe(allow);
    const deny = { decision: 'deny', rule: 'x', policyVersion: 'v1', message: 'no' } as const;
    expect(tightenForTaint(deny, taint, true, policy)).toBe(deny);
    const needs = { decision: 'approval_required', rule: 'big', policyVersion: 'v1', message: 'above 500', approval: { approverRole: 'admin', quorum: 2, ttlSeconds: 60 } } as const;
    expect(tightenForTaint(needs, { ...taint, detector: 'no_injection' }, true, policy)).toMatchObject({ rule: 'big', approval: needs.approval, message: expect.stringMatching(/no_injection guardrail flagged it.*; above 500$/) });
  });

  it('finds the first tainted record, at its step', () => {
    const rec = (step: number, name: string, t?: boolean) => ({ step, name, ...(t ? { taint: { detector: 'no_injection', excerpt: 'x' } } : {}) }) as never;
    expect(taintedAt([rec(1, 'a'), rec(2, 'b', true), rec(4, 'c', true)])).toEqual({ step: 2, tool: 'b', detector: 'no_injection' });
    expect(taintedAt([rec(1, 'a')])).toBeNull();
  });
});
