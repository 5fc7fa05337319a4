/**
 * How the approval queue reads for a reviewer: pending requests soonest-to-expire first, each with
 * the time it has left and the quorum's progress. Pure, so the page only draws.
 */
import type { ApprovalRequest } from './approval';

/** Milliseconds until the request expires (negative once past). */
export const msLeft = (r: Pick<ApprovalRequest, 'proposal'>, now: Date) => Date.parse(r.proposal.expiresAt) - now.getTime();

/** Soonest expiry first; ties by creation, then id, so the order is stable. */
export function byTimeLeft<T extends Pick<ApprovalRequest, 'proposal' | 'createdAt' | 'id'>>(requests: readonly T[]): T[] {
  return [...requests].sort(
    (a, b) => Date.parse(a.proposal.expiresAt) - Date.parse(b.proposal.expiresAt) || a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id),
  );
}

/** "3 d 4 h left", "2 h 05 min left", "14 min left", "40 s left", "expired". */
export function timeLeftText(ms: number): string {
  if (ms <= 0) return 'expired';
  const s = Math.floor(ms / 1000);
  const d = Math.floor(s / 86_400);
  const h = Math.floor((s % 86_400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  if (d > 0) return `${d} d ${h} h left`;
  if (h > 0) return `${h} h ${String(m).padStart(2, '0')} min left`;
  if (m > 0) return `${m} min left`;
  return `${s} s left`;
}

/** "1 of 2 approvals": distinct approvers so far against the quorum. */
export function quorumProgress(r: Pick<ApprovalRequest, 'decisions' | 'quorum'>): string {
  const approvers = new Set(r.decisions.filter((d) => d.verdict === 'approve').map((d) => d.reviewerId)).size;
  return `${approvers} of ${r.quorum} approval${r.quorum === 1 ? '' : 's'}`;
}

/**
 * The requests before and after `id` in the queue's order (pending, soonest to expire first): what
 * `k` and `j` open from a request's page. A request no longer in the queue (decided, expired) has
 * the queue's first as its next.
 */
export function queueNeighbours(queue: readonly { id: string }[], id: string): { previous: string | null; next: string | null } {
  const at = queue.findIndex((r) => r.id === id);
  if (at === -1) return { previous: null, next: queue[0]?.id ?? null };
  return { previous: queue[at - 1]?.id ?? null, next: queue[at + 1]?.id ?? null };
}
