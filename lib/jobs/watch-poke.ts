/**
 * Asks `queue` for a `watch` job (lib/watch): runs just stored wait in the outbox for it. A poke that
 * fails is logged, never the caller's failure: the sweep enqueues the same job every interval. Apart
 * from queue.ts so the job handlers, which queue.ts imports, can poke their own queue.
 */
import { WATCH_JOB_KEY, type JobQueue } from './types';

export async function pokeWatchOn(queue: JobQueue): Promise<void> {
  try {
    await queue.enqueue('watch', {}, { key: WATCH_JOB_KEY });
  } catch (err) {
    console.error('stockroom: could not enqueue the watch job (the sweep will)', err instanceof Error ? err.message : err);
  }
}
