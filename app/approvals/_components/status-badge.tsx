/** An approval request's status as a badge (text, so it reads without colour). */
const TONE: Record<string, string> = { pending: 'info', approved: 'good', denied: 'bad', expired: 'warn', stale: 'warn', cancelled: 'warn' };

export function ApprovalStatusBadge({ status }: { status: string }) {
  return (
    <span className={`badge ${TONE[status] ?? ''}`} data-testid="approval-status">
      {status}
    </span>
  );
}

/** A request still marked pending whose time ran out is expired (the tabs agree). */
export function effectiveStatus(req: { status: string; proposal: { expiresAt: string } }, now: Date): string {
  return req.status === 'pending' && Date.parse(req.proposal.expiresAt) <= now.getTime() ? 'expired' : req.status;
}
