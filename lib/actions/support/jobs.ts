import 'server-only';
/**
 * Background work for long actions (a golden suite, the matrix). Jobs run one at a time in this
 * server process, after the action that queued them has already answered; between harness runs a
 * job yields to the event loop, so pages and polls keep being served while it works. Progress lives
 * in the database (the suite row), which is what the browser polls.
 */

type Job = () => Promise<void>;

interface JobQueue {
  tail: Promise<void>;
  pending: number;
}

const store = globalThis as unknown as { __stockroomJobQueue?: JobQueue };
const queue = (store.__stockroomJobQueue ??= { tail: Promise.resolve(), pending: 0 });

/** Queues a job; it starts when the jobs before it have finished. A failing job never stops the queue. */
export function enqueueJob(name: string, job: Job): void {
  queue.pending += 1;
  queue.tail = queue.tail
    .then(job)
    .catch((err: unknown) => console.error(`[job ${name}] failed`, err))
    .finally(() => {
      queue.pending -= 1;
    });
}

/** Jobs queued or running (for the UI's "n jobs ahead" hint). */
export function pendingJobs(): number {
  return queue.pending;
}

/** Lets other requests run: resolves on the next turn of the event loop, after pending I/O. */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
