/** An approval request's status as a badge (text, so it reads without colour). */
const TONE: Record<string, string> = { pending: 'info', approved: 'good', denied: 'bad', expired: 'warn', stale: 'warn', cancelled: 'warn' };

export function ApprovalStatusBadge({ status }: { status: string }) {
  return (
    <span className={`badge ${TONE[status] ?? ''}`} data-testid="approval-status">
      {status}
    </span>
  );
}

export { effectiveStatus } from '@/lib/governance/approval';
