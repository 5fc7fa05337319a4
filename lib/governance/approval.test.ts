import { describe, expect, it } from 'vitest';
import { reviewRefusal, statusAfter, type ApprovalRequest } from './approval';
import { proposalDigest, type BoundProposal } from './proposal';
import { revalidate } from './revalidate';
import type { ReviewerIdentity } from './principal';

const proposal: BoundProposal = {
  actor: 'alice',
  tenant: 'kittiwake',
  tool: 'create_restock_request',
  toolVersion: '1',
  schemaDigest: 'a'.repeat(64),
  arguments: { sku: 'SKU-2003', quantity: 900 },
  policyVersion: 'p1',
  expiresAt: '2026-01-02T00:00:00.000Z',
};
const request = (over: Partial<ApprovalRequest> = {}): ApprovalRequest => ({
  id: 'apr_1',
  runId: 'run_1',
  callId: 'c2',
  step: 1,
  rule: 'restock-above-auto-approve',
  message: 'needs a manager',
  approverRole: 'reviewer',
  quorum: 1,
  proposal,
  digest: proposalDigest(proposal),
  status: 'pending',
  stateVersion: 0,
  createdAt: '2026-01-01T00:00:00.000Z',
  decidedAt: null,
  outcomeDetail: null,
  decisions: [],
  ...over,
});
const bob: ReviewerIdentity = { id: 'bob', memberships: [{ tenant: 'kittiwake', role: 'reviewer' }] };
const carol: ReviewerIdentity = { id: 'carol', memberships: [{ tenant: 'other-depot', role: 'reviewer' }] };
const alice: ReviewerIdentity = { id: 'alice', memberships: [{ tenant: 'kittiwake', role: 'admin' }] };
const noon = new Date('2026-01-01T12:00:00Z');

describe('reviewer checks', () => {
  it('lets a reviewer of the tenant decide a pending request', () => {
    expect(reviewRefusal(request(), bob, noon)).toBeNull();
  });

  it('refuses self-approval even for an admin, and a reviewer of another tenant', () => {
    expect(reviewRefusal(request(), alice, noon)).toBe('self_approval');
    expect(reviewRefusal(request(), carol, noon)).toBe('not_reviewer_for_tenant');
    expect(reviewRefusal(request(), { id: 'dan', memberships: [{ tenant: 'kittiwake', role: 'operator' }] }, noon)).toBe('not_reviewer_for_tenant');
  });

  it('refuses an expired request, a decided one, and a second vote by the same reviewer', () => {
    expect(reviewRefusal(request(), bob, new Date('2026-01-02T00:00:00Z'))).toBe('expired');
    expect(reviewRefusal(request({ status: 'approved' }), bob, noon)).toBe('already_decided');
    const voted = request({ quorum: 2, decisions: [{ reviewerId: 'bob', verdict: 'approve', reason: 'ok', at: '' }] });
    expect(reviewRefusal(voted, bob, noon)).toBe('already_voted');
  });

  it('needs the quorum of distinct approvers; one denial decides', () => {
    const q2 = request({ quorum: 2 });
    expect(statusAfter(q2, 'approve', 'bob')).toBe('pending');
    expect(statusAfter({ ...q2, decisions: [{ reviewerId: 'bob', verdict: 'approve', reason: '', at: '' }] }, 'approve', 'erin')).toBe('approved');
    expect(statusAfter(q2, 'deny', 'bob')).toBe('denied');
  });
});

describe('re-validation before dispatch', () => {
  const approved = request({ status: 'approved', decisions: [{ reviewerId: 'bob', verdict: 'approve', reason: 'ok', at: '' }] });
  const { expiresAt: _e, ...current } = proposal;
  const ctx = { current, now: noon, approvers: new Map([['bob', bob]]) };

  it('approves when every bound field still matches', () => {
    expect(revalidate(approved, ctx)).toEqual({ status: 'approved', field: null, resolution: { outcome: 'approved' } });
  });

  it.each([
    ['arguments', { arguments: { sku: 'SKU-2003', quantity: 9000 } }],
    ['policyVersion', { policyVersion: 'p2' }],
    ['schemaDigest', { schemaDigest: 'b'.repeat(64) }],
    ['toolVersion', { toolVersion: '2' }],
  ])('refuses as stale when %s changed, naming the field', (field, change) => {
    const r = revalidate(approved, { ...ctx, current: { ...current, ...change } });
    expect(r.status).toBe('stale');
    expect(r.field).toBe(field);
    expect(r.resolution).toMatchObject({ outcome: 'stale', message: expect.stringContaining(`${field} changed`) });
  });

  it('refuses a stored proposal that no longer hashes to its digest', () => {
    const tampered = { ...approved, proposal: { ...proposal, arguments: { sku: 'SKU-2003', quantity: 5 } } };
    expect(revalidate(tampered, { ...ctx, current: { ...current, arguments: { sku: 'SKU-2003', quantity: 5 } } })).toMatchObject({ status: 'stale', field: 'digest' });
  });

  it('keeps expired, denied and stale distinct', () => {
    expect(revalidate(approved, { ...ctx, now: new Date('2026-01-03T00:00:00Z') })).toMatchObject({ status: 'expired', resolution: { outcome: 'expired' } });
    const denied = request({ status: 'denied', decisions: [{ reviewerId: 'bob', verdict: 'deny', reason: 'too many', at: '' }] });
    expect(revalidate(denied, ctx)).toMatchObject({ status: 'denied', resolution: { outcome: 'denied', message: expect.stringContaining('too many') } });
    // A reason ending in a full stop loses it: the message is a clause that is ended by whoever quotes it.
    const dotted = request({ status: 'denied', decisions: [{ reviewerId: 'bob', verdict: 'deny', reason: 'Not this week. ', at: '' }] });
    expect(revalidate(dotted, ctx).resolution).toEqual({ outcome: 'denied', message: 'a reviewer denied this call: Not this week' });
  });

  it('refuses when an approver lost the reviewer role since approving', () => {
    const demoted = new Map([['bob', { id: 'bob', memberships: [{ tenant: 'kittiwake', role: 'viewer' as const }] }]]);
    expect(revalidate(approved, { ...ctx, approvers: demoted })).toMatchObject({ status: 'stale', field: 'approver' });
  });
});
