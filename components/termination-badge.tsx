/**
 * A run's termination reason as a coloured badge (text, so it reads without colour too). A run that
 * completed after a guard or the policy refused one of its calls, or whose governed write the
 * downstream refused (the effect journal's `failed`), is not a clean success: it is amber and says
 * how many calls were refused and how many writes failed.
 */
export function TerminationBadge({ reason, blocked = 0, failedWrites = 0 }: { reason: string; blocked?: number; failedWrites?: number }) {
  const clean = reason === 'COMPLETED' && blocked === 0 && failedWrites === 0;
  const tone = clean ? 'good' : reason === 'COMPLETED' || reason === 'MAX_STEPS' || reason === 'TOKEN_BUDGET' ? 'warn' : 'bad';
  return (
    <span className={`badge ${tone}`} data-testid="termination-badge">
      {reason}
      {blocked > 0 ? ` · ${blocked} call${blocked === 1 ? '' : 's'} refused` : ''}
      {failedWrites > 0 ? ` · ${failedWrites === 1 ? 'its write failed' : `${failedWrites} writes failed`}` : ''}
    </span>
  );
}
