/** A run still being stored step by step (a live model run): shown instead of its termination. */
export function RunningBadge() {
  return (
    <span className="badge info" data-testid="running-badge">
      running
    </span>
  );
}
