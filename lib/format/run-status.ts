/**
 * A stored run's status while it has not ended: `queued` until a worker takes it (PostgreSQL),
 * `running` while it is stored step by step, `stopping` once someone asked it to stop (until its end
 * is stored). Pages follow such a run; nothing else is live.
 */
export const LIVE_RUN_STATUSES: readonly string[] = ['queued', 'running', 'stopping'];

export function isLiveStatus(status: string): boolean {
  return LIVE_RUN_STATUSES.includes(status);
}
