/** A run that has not ended (queued for a worker, running, or stopping): shown instead of its termination. */
export function RunningBadge({ status }: { status: string }) {
  return (
    <span className="badge info" data-testid="running-badge">
      {status === 'queued' || status === 'stopping' ? status : 'running'}
    </span>
  );
}
