/**
 * A stored run's status while a live model is still working on it: `running`, or `stopping` once
 * someone asked it to stop (until its end is stored). Pages follow such a run; nothing else is live.
 */
export const LIVE_RUN_STATUSES: readonly string[] = ['running', 'stopping'];

export function isLiveStatus(status: string): boolean {
  return LIVE_RUN_STATUSES.includes(status);
}
