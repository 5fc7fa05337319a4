/** A run still being stored step by step (a live model run): shown instead of its termination. */
export function RunningBadge({ stopping = false }: { stopping?: boolean }) {
  return (
    <span className="badge info" data-testid="running-badge">
      {stopping ? 'stopping' : 'running'}
    </span>
  );
}
