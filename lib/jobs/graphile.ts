/**
 * The PostgreSQL backend of the job interface: graphile-worker 0.17 (LISTEN/NOTIFY, so a queued job
 * starts within milliseconds, not a polling interval; jobs locked with `FOR UPDATE SKIP LOCKED`;
 * retries with exponential backoff; job keys). The web server only enqueues (GraphileQueue); the
 * workers (`npm run worker`) run the handlers (startGraphileRunner).
 */
import { EventEmitter } from 'node:events';
import { Logger, makeWorkerUtils, run, type Runner, type Task, type TaskList, type WorkerPool, type WorkerUtils } from 'graphile-worker';
import { JOB_MAX_ATTEMPTS, type EnqueueOptions, type JobHandlers, type JobKind, type JobPayload, type JobQueue } from './types';
import { withJobPolicy } from './handlers';

/** The schema graphile-worker keeps its tables in. */
export const GRAPHILE_SCHEMA = 'graphile_worker';
/** Connections the enqueue-only utilities keep (the web server, the CLI). */
const UTILS_POOL_SIZE = 2;

/** Enqueues on graphile-worker; nothing runs here. */
export class GraphileQueue implements JobQueue {
  readonly backend = 'graphile-worker' as const;
  private utils: Promise<WorkerUtils> | null = null;

  constructor(private readonly connectionString: string) {}

  private get(): Promise<WorkerUtils> {
    this.utils ??= (async () => {
      const utils = await makeWorkerUtils({ connectionString: this.connectionString, schema: GRAPHILE_SCHEMA, maxPoolSize: UTILS_POOL_SIZE });
      await utils.migrate();
      return utils;
    })().catch((err: unknown) => {
      this.utils = null;
      throw err;
    });
    return this.utils;
  }

  async enqueue<K extends JobKind>(kind: K, payload: JobPayload<K>, options: EnqueueOptions = {}): Promise<void> {
    const utils = await this.get();
    await utils.addJob(kind as string, payload as never, {
      maxAttempts: options.maxAttempts ?? JOB_MAX_ATTEMPTS,
      ...(options.priority !== undefined ? { priority: options.priority } : {}),
      ...(options.key !== undefined ? { jobKey: options.key, jobKeyMode: 'unsafe_dedupe' as const } : {}),
    });
  }

  /**
   * One statement for the whole batch (graphile-worker's add_jobs), so a suite's fan-out is ready at
   * once rather than job by job. add_jobs replaces a queued job of the same key and starts another
   * beside a running one, so keys already queued or running are left out first: a key present adds
   * nothing, as with enqueue. (A job keyed the same added between the two steps may run twice;
   * a suite case is stored once whatever runs it.)
   */
  async enqueueMany<K extends JobKind>(kind: K, jobs: ReadonlyArray<{ payload: JobPayload<K>; key?: string; priority?: number }>): Promise<void> {
    if (jobs.length === 0) return;
    const utils = await this.get();
    const keys = jobs.flatMap((j) => (j.key !== undefined ? [j.key] : []));
    const present = new Set(
      keys.length === 0
        ? []
        : await utils.withPgClient(async (client) => (await client.query<{ key: string }>(`SELECT key FROM ${GRAPHILE_SCHEMA}.jobs WHERE key = ANY($1::text[])`, [keys])).rows.map((r) => r.key)),
    );
    const specs = jobs
      .filter((j) => j.key === undefined || !present.has(j.key))
      .map((j) => ({ identifier: kind as string, payload: j.payload as never, maxAttempts: JOB_MAX_ATTEMPTS, ...(j.key !== undefined ? { jobKey: j.key } : {}), ...(j.priority !== undefined ? { priority: j.priority } : {}) }));
    if (specs.length > 0) await utils.addJobs(specs, true);
  }

  /** A client of the queue's pool (tests, the bench, the jobs CLI). */
  async withClient<T>(fn: (client: import('pg').PoolClient) => Promise<T>): Promise<T> {
    return (await this.get()).withPgClient(fn);
  }

  /** Jobs of a kind still queued or running (tests, the bench). */
  async countJobs(kind?: JobKind): Promise<number> {
    const utils = await this.get();
    return utils.withPgClient(async (client) => {
      const r = await client.query<{ n: string }>(
        `SELECT count(*)::text AS n FROM ${GRAPHILE_SCHEMA}.jobs WHERE ($1::text IS NULL OR task_identifier = $1) AND attempts < max_attempts`,
        [kind ?? null],
      );
      return Number(r.rows[0]?.n ?? 0);
    });
  }

  /**
   * Releases the jobs locked by workers that are gone (their heartbeat stopped), and wakes the
   * listening workers so one takes them now rather than at its next poll.
   */
  async releaseWorkers(workerIds: string[]): Promise<void> {
    if (workerIds.length === 0) return;
    const utils = await this.get();
    await utils.forceUnlockWorkers(workerIds);
    await utils.withPgClient((client) => client.query(`SELECT pg_notify('jobs:insert', json_build_object('r', random(), 'count', $1::int)::text)`, [workerIds.length]));
  }

  /**
   * Hands back the jobs a stopping worker still holds after its grace period, as graphile-worker's
   * own returnJobs does (unlocked, the attempt they were on not counted, due now), and wakes the
   * listening workers so another takes them at once. graphile-worker's forcefulShutdown would fail
   * them instead, which delays each by its retry backoff and spends an attempt on a job that did
   * nothing wrong. Returns the ids released.
   */
  async returnJobsOf(lockedBy: readonly string[], message: string): Promise<string[]> {
    if (lockedBy.length === 0) return [];
    const utils = await this.get();
    return utils.withPgClient(async (client) => {
      const r = await client.query<{ id: string }>(
        `WITH j AS (
           UPDATE ${GRAPHILE_SCHEMA}._private_jobs
              SET locked_by = NULL, locked_at = NULL, attempts = GREATEST(0, attempts - 1), last_error = $2::text
            WHERE locked_by = ANY($1::text[])
        RETURNING id, job_queue_id
         ), q AS (
           UPDATE ${GRAPHILE_SCHEMA}._private_job_queues AS jq SET locked_by = NULL, locked_at = NULL
             FROM j WHERE jq.id = j.job_queue_id AND jq.locked_by = ANY($1::text[])
         )
         SELECT id::text AS id FROM j`,
        [lockedBy, message],
      );
      if (r.rows.length > 0) await client.query(`SELECT pg_notify('jobs:insert', json_build_object('r', random(), 'count', $1::int)::text)`, [r.rows.length]);
      return r.rows.map((row) => row.id);
    });
  }

  async close(): Promise<void> {
    const utils = this.utils;
    this.utils = null;
    if (utils) await (await utils).release();
  }
}

/** graphile-worker's own log, warnings and errors only (it logs every completed job at info). */
const quietLogger = new Logger(() => (level, message) => {
  if (level === 'error' || level === 'warning') console.error(`[graphile-worker] ${message}`);
});

export interface GraphileRunnerOptions {
  connectionString: string;
  /** Jobs this process runs at once. */
  concurrency: number;
  handlers: JobHandlers;
  /** The queue handlers enqueue follow-up jobs on. */
  queue: JobQueue;
  /**
   * Told the graphile-worker ids of this process (its heartbeat names them): the pool's id, which
   * 0.17 locks jobs with, and each worker's.
   */
  onWorkerId: (id: string) => void;
  /** Milliseconds between polls for jobs whose retry is due (new jobs arrive by NOTIFY). */
  pollInterval?: number;
  /**
   * Aborts the running handlers when a stopping worker's grace period is over (graphile-worker's
   * own abort, 5 s after a graceful shutdown starts, is pushed past it).
   */
  stopSignal: AbortSignal;
  /** True once this worker handed its jobs back: a handler ending after that neither completes nor fails its job. */
  released: () => boolean;
  /** Longest grace period a stop may give running jobs (graphile-worker's abort waits past it). */
  graceMs: number;
}

/** The runner and its pool (whose id locks the jobs; it takes gracefulShutdown). */
export interface GraphileRunner {
  runner: Runner;
  pool: WorkerPool;
}

/** Thrown by a handler that ended after its job was handed back: graphile-worker's fail is then a no-op (the lock is no longer ours). */
export class JobReleasedError extends Error {
  constructor() {
    super('the worker stopped and handed this job back to the queue');
  }
}

/** Starts a graphile-worker runner over the handlers. */
export async function startGraphileRunner(options: GraphileRunnerOptions): Promise<GraphileRunner> {
  const taskList: TaskList = {};
  for (const kind of Object.keys(options.handlers) as JobKind[]) {
    const handler = withJobPolicy(kind, options.handlers[kind] as never);
    const task: Task = async (payload, helpers) => {
      const signal = helpers.abortSignal ? AbortSignal.any([helpers.abortSignal, options.stopSignal]) : options.stopSignal;
      await handler(payload, { signal, attempt: helpers.job.attempts, maxAttempts: helpers.job.max_attempts, queue: options.queue });
      // Done after the job was handed back: another worker may hold it now, so it must not be deleted from under it.
      if (options.released()) throw new JobReleasedError();
    };
    taskList[kind] = task;
  }
  // Handed in before the workers exist, so no worker:create is missed.
  const events = new EventEmitter() as NonNullable<Parameters<typeof run>[0]['events']>;
  let pool: WorkerPool | null = null;
  events.on('pool:create', ({ workerPool }) => {
    pool = workerPool;
    options.onWorkerId(workerPool.id);
  });
  events.on('worker:create', ({ worker }) => options.onWorkerId(worker.workerId));
  const runner = await run({
    events,
    connectionString: options.connectionString,
    schema: GRAPHILE_SCHEMA,
    concurrency: options.concurrency,
    // The pool serves the jobs' lock/complete queries; the data layer has its own (Prisma).
    maxPoolSize: Math.max(4, options.concurrency + 2),
    pollInterval: options.pollInterval ?? 1_000,
    noHandleSignals: true, // the worker's CLI stops it (SIGTERM/SIGINT) with its grace period
    gracefulShutdownAbortTimeout: options.graceMs + 60_000,
    // Completions and failures through graphile-worker's batcher (delay 0: sent at once), because a
    // pool shutting down waits for the batcher, whereas with batching off (-1) a job finished just
    // before the stop is completed fire-and-forget and was left locked when the process exited.
    preset: { worker: { completeJobBatchDelay: 0, failJobBatchDelay: 0 } },
    taskList,
    crontab: '', // the sweep is enqueued by the workers themselves (keyed), not by cron
    logger: quietLogger,
  });
  if (!pool) throw new Error('graphile-worker started without announcing its worker pool');
  return { runner, pool };
}
