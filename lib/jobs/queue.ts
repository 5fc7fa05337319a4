/**
 * The process's job queue, picked from DATABASE_URL like the database: graphile-worker on
 * PostgreSQL (this process only enqueues; `npm run worker` processes run the jobs), the in-process
 * queue on SQLite (this process runs them).
 */
import { isConnectionLost } from './connection-lost';
import { resolveDatabaseUrl } from '../db/core';
import { createHandlers } from './handlers';
import { GraphileQueue } from './graphile';
import { InProcessQueue } from './in-process';
import type { RunQueue } from '../runs/queue-port';
import type { JobQueue } from './types';
import { deliveryQueueOf } from './delivery-queue';
import { pokeWatchOn } from './watch-poke';

export { deliveryQueueOf };

/** Jobs the in-process queue runs at once (STOCKROOM_WORKER_CONCURRENCY). */
export const DEFAULT_IN_PROCESS_CONCURRENCY = 2;

/** An integer from the environment (a concurrency by default: 1 to 256); a bad value is refused naming the variable. */
export function concurrencyFromEnv(name: string, fallback: number, env: NodeJS.ProcessEnv = process.env, max = 256, min = 1): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) throw new RangeError(`${name} must be an integer from ${min} to ${max} (got '${raw}')`);
  return n;
}

/**
 * STOCKROOM_WORKER_NICE: the CPU priority a worker lowers itself to (0, the default, keeps it; up to
 * 19, the lowest). A worker on the web server's machine yields the CPU to the pages that way.
 */
export function workerNiceFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.STOCKROOM_WORKER_NICE;
  if (raw === undefined || raw.trim() === '') return 0;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0 || n > 19) throw new RangeError(`STOCKROOM_WORKER_NICE must be an integer from 0 to 19 (got '${raw}')`);
  return n;
}

const cache = globalThis as unknown as { __stockroomJobQueue2?: JobQueue };

/** The process-wide queue (cached on globalThis for Next's dev reloads). */
export function getJobQueue(): JobQueue {
  cache.__stockroomJobQueue2 ??= createJobQueue();
  return cache.__stockroomJobQueue2;
}

/** Closes the process-wide queue, if one was made (tests, before dropping their database). */
export async function closeJobQueue(): Promise<void> {
  const queue = cache.__stockroomJobQueue2;
  cache.__stockroomJobQueue2 = undefined;
  await queue?.close();
}

export function createJobQueue(url: string | undefined = process.env.DATABASE_URL): JobQueue {
  const target = resolveDatabaseUrl(url);
  if (target.provider === 'postgres') return new GraphileQueue(target.url);
  return new InProcessQueue(createHandlers(), concurrencyFromEnv('STOCKROOM_WORKER_CONCURRENCY', DEFAULT_IN_PROCESS_CONCURRENCY));
}

/** The run service's view of a job queue (lib/runs/queue-port.ts): runs and suites, each keyed so a repeat adds nothing. */
export function runQueueOf(queue: JobQueue): RunQueue {
  return {
    remote: queue.backend === 'graphile-worker',
    enqueueRun: (job) => queue.enqueue('run', job, { key: `run:${job.runId}` }),
    enqueueSuite: (spec) => queue.enqueue('suite', spec, { key: `suite:${spec.suiteRunId}` }),
    enqueueDeliveries: (ids) => deliveryQueueOf(queue).enqueueDeliveries(ids),
    enqueueResume: (runId) => retryWhileUnreachable(() => queue.enqueue('governed-resume', { runId }, { key: `governed-resume:${runId}` })),
  };
}

/** How long a decided run's resume is tried to be enqueued while the database is unreachable (0.25 s, doubling). */
const ENQUEUE_RETRY_WINDOW_MS = 8_000;

/**
 * Enqueues a decided run's resume. Its decision is already committed, so a database restart at this
 * moment must not leave the run waiting for the minute sweep: a lost connection is tried again for a
 * few seconds (the sweep stays the last resort).
 */
async function retryWhileUnreachable(enqueue: () => Promise<void>): Promise<void> {
  const until = Date.now() + ENQUEUE_RETRY_WINDOW_MS;
  for (let wait = 250; ; wait *= 2) {
    try {
      return await enqueue();
    } catch (err) {
      if (!isConnectionLost(err) || Date.now() + wait > until) throw err;
      await new Promise((r) => setTimeout(r, wait));
    }
  }
}

/** The process-wide queue as the run service sees it. */
export function getRunQueue(): RunQueue {
  return runQueueOf(getJobQueue());
}

/** Asks the process's queue (or `queue`) for a `watch` job; a failure is only logged (watch-poke.ts). */
export function pokeWatch(queue: JobQueue = getJobQueue()): Promise<void> {
  return pokeWatchOn(queue);
}
