import { describe, expect, it } from 'vitest';
import { byTimeLeft, msLeft, queueNeighbours, quorumProgress, timeLeftText } from './queue-order';

const req = (id: string, expiresAt: string, createdAt = '2026-01-01T00:00:00.000Z') => ({ id, createdAt, proposal: { expiresAt } as never });

describe('the approval queue by time left', () => {
  it('puts the request that expires soonest first, whatever order they were made in', () => {
    const rows = [req('a', '2026-01-02T10:00:00Z'), req('b', '2026-01-01T09:00:00Z'), req('c', '2026-01-01T12:00:00Z')];
    expect(byTimeLeft(rows).map((r) => r.id)).toEqual(['b', 'c', 'a']);
  });

  it('breaks ties by creation then id, so the order does not flicker between loads', () => {
    const rows = [req('z', '2026-01-01T09:00:00Z', '2026-01-01T00:00:02Z'), req('y', '2026-01-01T09:00:00Z', '2026-01-01T00:00:01Z'), req('x', '2026-01-01T09:00:00Z', '2026-01-01T00:00:01Z')];
    expect(byTimeLeft(rows).map((r) => r.id)).toEqual(['x', 'y', 'z']);
  });

  it('says how long is left in the largest units that matter, and expired once past', () => {
    expect(timeLeftText(3 * 86_400_000 + 4 * 3_600_000 + 5)).toBe('3 d 4 h left');
    expect(timeLeftText(2 * 3_600_000 + 5 * 60_000)).toBe('2 h 05 min left');
    expect(timeLeftText(14 * 60_000 + 59_000)).toBe('14 min left');
    expect(timeLeftText(40_500)).toBe('40 s left');
    expect(timeLeftText(0)).toBe('expired');
    expect(timeLeftText(-1)).toBe('expired');
    expect(msLeft(req('a', '2026-01-01T00:01:00Z'), new Date('2026-01-01T00:00:00Z'))).toBe(60_000);
  });

  it('counts distinct approvers against the quorum (a denial or a repeat is no approval)', () => {
    const d = (reviewerId: string, verdict: 'approve' | 'deny') => ({ reviewerId, verdict, reason: '', at: '' });
    expect(quorumProgress({ quorum: 2, decisions: [] })).toBe('0 of 2 approvals');
    expect(quorumProgress({ quorum: 2, decisions: [d('u1', 'approve'), d('u1', 'approve')] })).toBe('1 of 2 approvals');
    expect(quorumProgress({ quorum: 1, decisions: [d('u1', 'deny')] })).toBe('0 of 1 approval');
  });
});

describe('queueNeighbours', () => {
  const queue = [{ id: 'a' }, { id: 'b' }, { id: 'c' }];
  it('gives the requests before and after one in the queue (j: next, k: previous)', () => {
    expect(queueNeighbours(queue, 'b')).toEqual({ previous: 'a', next: 'c' });
    expect(queueNeighbours(queue, 'a')).toEqual({ previous: null, next: 'b' });
    expect(queueNeighbours(queue, 'c')).toEqual({ previous: 'b', next: null });
  });
  it('sends a request no longer pending on to the queue’s first', () => {
    expect(queueNeighbours(queue, 'gone')).toEqual({ previous: null, next: 'a' });
    expect(queueNeighbours([], 'gone')).toEqual({ previous: null, next: null });
  });
});
