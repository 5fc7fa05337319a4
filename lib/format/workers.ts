/**
 * What the matrix page, the instructor page and the CLI say about who works on a suite. On the
 * embedded SQLite default the server runs its jobs itself; on PostgreSQL it only enqueues, so a
 * suite with no live worker waits in the queue, and saying so beats a bar that never moves.
 */

export type WorkerPresence = { backend: 'in-process' } | { backend: 'workers'; online: number; slots: number };

const WAITING = new Set(['queued', 'running']);

/** The warning for a suite that waits with no worker to take it; null when one is there or none is needed. */
export function noWorkerNotice(status: string, workers: WorkerPresence): string | null {
  if (!WAITING.has(status) || workers.backend !== 'workers' || workers.online > 0) return null;
  return 'No worker is running: this suite waits in the queue until one starts (npm run worker, with the same DATABASE_URL).';
}

/** "on 2 workers, 16 runs at a time" for a suite that waits or runs (null otherwise, and on the in-process backend, where there is nothing to add). */
export function workersLine(status: string, workers: WorkerPresence): string | null {
  if (!WAITING.has(status) || workers.backend !== 'workers' || workers.online === 0) return null;
  return `on ${workers.online} worker${workers.online === 1 ? '' : 's'}, ${workers.slots} run${workers.slots === 1 ? '' : 's'} at a time`;
}
