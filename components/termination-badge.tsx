/** A run's termination reason as a coloured badge (text, so it reads without colour too). */
export function TerminationBadge({ reason }: { reason: string }) {
  const tone = reason === 'COMPLETED' ? 'good' : reason === 'MAX_STEPS' || reason === 'TOKEN_BUDGET' ? 'warn' : 'bad';
  return <span className={`badge ${tone}`}>{reason}</span>;
}
