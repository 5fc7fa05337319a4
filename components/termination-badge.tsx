/**
 * A run's termination reason as a coloured badge (text, so it reads without colour too). A run that
 * completed after a guard or the policy refused one of its calls is not a clean success: it is
 * amber and says how many calls were refused.
 */
export function TerminationBadge({ reason, blocked = 0 }: { reason: string; blocked?: number }) {
  const clean = reason === 'COMPLETED' && blocked === 0;
  const tone = clean ? 'good' : reason === 'COMPLETED' || reason === 'MAX_STEPS' || reason === 'TOKEN_BUDGET' ? 'warn' : 'bad';
  return (
    <span className={`badge ${tone}`} data-testid="termination-badge">
      {reason}
      {blocked > 0 ? ` · ${blocked} call${blocked === 1 ? '' : 's'} refused` : ''}
    </span>
  );
}
