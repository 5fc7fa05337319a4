/**
 * The PostgreSQL backend of the job interface: graphile-worker 0.17 (LISTEN/NOTIFY, so a queued job
 * starts within milliseconds, not a polling interval; jobs locked with `FOR UPDATE SKIP LOCKED`;
 * retries with exponential backoff; job keys). The web server only enqueues (GraphileQueue); the
 * workers (`npm run worker`) run the handlers (startGraphileRunner).
 */
import { EventEmitter } from 'node:events';
import { Logger, makeWorkerUtils, run, type Runner, type Task, type TaskList, type WorkerPool, type WorkerUtils } from 'graphile-worker';
import { JOB_MAX_ATTEMPTS, PermanentJobError, type EnqueueJob, type EnqueueOptions, type JobHandlers, type JobKind, type JobPayload, type JobQueue } from './types';
import { withJobPolicy } from './handlers';
import { isConnectionLost } from './connection-lost';
import { GRAPHILE_SCHEMA, HELD_BY_LEASE_SQL, JobLeaseLostError, leaseParams, type JobLease } from '../db/core';

export { GRAPHILE_SCHEMA };

/** How often a job that lost its connection tries to give its attempt back while the database is away. */
const UNSPEND_RETRY_MS = 500;
/**
 * What a repeated key means, per kind, in graphile-worker's own modes (add_job): both replace a job
 * still queued or failed for good (attempts reset) and, beside one already running, add a new one.
 * - `preserve_run_at` (run, suite, suite-case): the key names one piece of work; a repeat changes
 *   nothing about when it runs (a run is enqueued once; a suite's fan-out and its cases are idempotent:
 *   a case is stored once).
 * - `replace` (governed-resume): a repeat is a new decision, new information; a resume already
 *   running on the older state is followed by another (the claim on the run's state version makes
 *   it one resume).
 * The sweep has no key: graphile-worker's crontab runs it once per interval across workers.
 */
export const JOB_KEY_MODES: Record<JobKind, 'replace' | 'preserve_run_at'> = {
  run: 'preserve_run_at',
  suite: 'preserve_run_at',
  'suite-case': 'preserve_run_at',
  'governed-resume': 'replace',
  sweep: 'replace',
  webhook: 'preserve_run_at',
  // A poke while a drain runs adds one more drain, which takes what arrived after the first read.
  watch: 'replace',
  // A step's key is its own (types.ts backfillJobKey): a repeated nudge of the same step adds nothing more.
  backfill: 'replace',
};

/**
 * The periodic sweep on graphile-worker's crontab: every minute, once across all workers (the
 * crontab's own bookkeeping, _private_known_crontabs, decides which worker adds it), a minute's
 * backfill when no worker was running at the time, one attempt (the next minute is the retry), and
 * keyed so a sweep still queued is replaced rather than doubled.
 */
export const SWEEP_CRONTAB = '* * * * * sweep ?fill=1m&max=1&jobKey=sweep&jobKeyMode=replace';

/** Connections the enqueue-only utilities keep (the web server, the CLI). */
const UTILS_POOL_SIZE = 2;

/** The queue as an operator sees it (`npm run stockroom -- jobs`). */
export interface QueueReport {
  byKind: Array<{ kind: string; waiting: number; running: number; failed: number }>;
  /** Jobs failed for good, newest first: never retried, kept with their error until removed. */
  failed: Array<{ id: string; kind: string; key: string | null; attempts: number; error: string | null; at: string }>;
}

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
      ...(options.key !== undefined ? { jobKey: options.key, jobKeyMode: JOB_KEY_MODES[kind] } : {}),
    });
  }

  /**
   * One statement for the whole batch (graphile-worker's add_jobs), so a suite's fan-out is ready at
   * once rather than job by job, with each kind's key mode (JOB_KEY_MODES). Keys whose job can still
   * run (queued, waiting for a retry, or running) are left out first, so a repeated fan-out neither
   * resets a retry's attempts nor starts a second copy beside a running one; a key whose job failed
   * for good is added again (add_jobs resets it), so nothing that failed blocks later work.
   */
  async enqueueMany<K extends JobKind>(kind: K, jobs: ReadonlyArray<EnqueueJob<K>>): Promise<void> {
    if (jobs.length === 0) return;
    const utils = await this.get();
    const keys = jobs.flatMap((j) => (j.key !== undefined ? [j.key] : []));
    const live = new Set(
      keys.length === 0
        ? []
        : await utils.withPgClient(
            async (client) =>
              (await client.query<{ key: string }>(`SELECT key FROM ${GRAPHILE_SCHEMA}.jobs WHERE key = ANY($1::text[]) AND (attempts < max_attempts OR locked_by IS NOT NULL)`, [keys])).rows.map((r) => r.key),
          ),
    );
    const specs = jobs
      .filter((j) => j.key === undefined || !live.has(j.key))
      .map((j) => ({ identifier: kind as string, payload: j.payload as never, maxAttempts: JOB_MAX_ATTEMPTS, ...(j.key !== undefined ? { jobKey: j.key } : {}), ...(j.priority !== undefined ? { priority: j.priority } : {}) }));
    if (specs.length > 0) await utils.addJobs(specs, JOB_KEY_MODES[kind] === 'preserve_run_at');
  }

  /** A client of the queue's pool (tests, the bench, the jobs CLI). */
  async withClient<T>(fn: (client: import('pg').PoolClient) => Promise<T>): Promise<T> {
    return (await this.get()).withPgClient(fn);
  }

  /**
   * What the queue holds, by kind: jobs waiting to run (new or waiting for a retry), running, and
   * failed for good, with the failed ones' errors, newest first (the `jobs` command). Payloads are
   * not shown (they name tenants and callers).
   */
  async report(limit = 20): Promise<QueueReport> {
    return this.withClient(async (client) => {
      const counts = await client.query<{ kind: string; waiting: string; running: string; failed: string }>(
        `SELECT task_identifier AS kind,
                count(*) FILTER (WHERE locked_by IS NULL AND attempts < max_attempts)::text AS waiting,
                count(*) FILTER (WHERE locked_by IS NOT NULL)::text AS running,
                count(*) FILTER (WHERE locked_by IS NULL AND attempts >= max_attempts)::text AS failed
           FROM ${GRAPHILE_SCHEMA}.jobs GROUP BY task_identifier ORDER BY task_identifier`,
      );
      const failed = await client.query<{ id: string; kind: string; key: string | null; attempts: number; error: string | null; at: Date }>(
        `SELECT id::text AS id, task_identifier AS kind, key, attempts, last_error AS error, updated_at AS at
           FROM ${GRAPHILE_SCHEMA}.jobs WHERE locked_by IS NULL AND attempts >= max_attempts
          ORDER BY updated_at DESC, id DESC LIMIT $1`,
        [limit],
      );
      return {
        byKind: counts.rows.map((r) => ({ kind: r.kind, waiting: Number(r.waiting), running: Number(r.running), failed: Number(r.failed) })),
        failed: failed.rows.map((r) => ({ id: r.id, kind: r.kind, key: r.key, attempts: r.attempts, error: r.error ?? null, at: r.at.toISOString() })),
      };
    });
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
  /** True once the worker itself asked its pool to stop (its shutdown is then not "by itself"). */
  stopRequested?: () => boolean;
}

/** The runner and its pool (whose id locks the jobs; it takes gracefulShutdown). */
export interface GraphileRunner {
  runner: Runner;
  pool: WorkerPool;
  /**
   * Slots of the pool still working: its workers not yet stopped. graphile-worker stops a worker
   * when it shuts the pool down (gracefully, once the worker's job ended), which it does by itself
   * when it cannot complete or fail a job (the database went away): then this falls to 0.
   */
  slots(): number;
  /**
   * Resolves with graphile-worker's reason when the pool starts shutting down by itself (it could not
   * complete or fail a job); from then on it takes no job, though its running handlers may still end.
   */
  stoppingByItself: Promise<string>;
}

/** Thrown by a handler that ended after its job was handed back: graphile-worker's fail is then a no-op (the lock is no longer ours). */
export class JobReleasedError extends Error {
  constructor() {
    super('the worker stopped and handed this job back to the queue');
  }
}

type PgClientRunner = <T>(fn: (client: import('pg').PoolClient) => Promise<T>) => Promise<T>;

/**
 * Gives back the attempt a job is on (attempts − 1) while this worker still holds it, so the failure
 * graphile-worker then records (unlocking it, due again after exp(attempts) = 1 s) does not count.
 * graphile-worker's own fail does the unlocking: a job unlocked here could be taken again by this
 * same pool (same lock id) before that fail lands, which would then fail the new attempt.
 * Tried again every UNSPEND_RETRY_MS while the database is away, until it answers or `signal`
 * aborts (a stopping worker hands its jobs back itself). Returns whether the database answered.
 */
async function unspendAttemptWhenReachable(withPgClient: PgClientRunner, lease: JobLease, signal: AbortSignal): Promise<boolean> {
  for (;;) {
    try {
      await withPgClient((client) => client.query(`UPDATE ${GRAPHILE_SCHEMA}._private_jobs SET attempts = GREATEST(0, attempts - 1) WHERE id = $1::bigint AND ${HELD_BY_LEASE_SQL}`, [lease.jobId, ...leaseParams(lease)]));
      return true;
    } catch (err) {
      if (!isConnectionLost(err) || signal.aborted) return false;
      await new Promise((resolve) => setTimeout(resolve, UNSPEND_RETRY_MS));
    }
  }
}

/** Whether this worker still holds the job (asked before graphile-worker completes it, which deletes the row whoever holds it). */
async function stillHeld(withPgClient: PgClientRunner, lease: JobLease): Promise<string | null | true> {
  return withPgClient(async (client) => {
    const r = await client.query<{ locked_by: string | null; held: boolean }>(`SELECT locked_by, (${HELD_BY_LEASE_SQL}) AS held FROM ${GRAPHILE_SCHEMA}._private_jobs WHERE id = $1::bigint`, [lease.jobId, ...leaseParams(lease)]);
    const row = r.rows[0];
    return row?.held ? true : (row?.locked_by ?? null);
  });
}

/** Starts a graphile-worker runner over the handlers. */
export async function startGraphileRunner(options: GraphileRunnerOptions): Promise<GraphileRunner> {
  const taskList: TaskList = {};
  for (const kind of Object.keys(options.handlers) as JobKind[]) {
    const handler = withJobPolicy(kind, options.handlers[kind] as never);
    const task: Task = async (payload, helpers) => {
      const signal = helpers.abortSignal ? AbortSignal.any([helpers.abortSignal, options.stopSignal]) : options.stopSignal;
      if (!pool) throw new Error('graphile-worker ran a job before announcing its worker pool');
      // The lock time tells this attempt from a later one the same pool takes after a release.
      const lease: JobLease = { jobId: String(helpers.job.id), lockedBy: pool.id, lockedAt: helpers.job.locked_at ?? undefined };
      try {
        let confirmed = false;
        await handler(payload, { signal, attempt: helpers.job.attempts, maxAttempts: helpers.job.max_attempts, queue: options.queue, lease, leaseConfirmed: () => (confirmed = true) });
        // graphile-worker's complete deletes the row whoever holds it: a job released meanwhile (this
        // worker was paused past its lease) is the new owner's to complete. A handler whose last
        // statement read the lease already said so (a suite case's count): not asked again.
        const held = confirmed || (await stillHeld(helpers.withPgClient, lease));
        if (held !== true) throw new JobLeaseLostError(lease, held);
      } catch (err) {
        if (err instanceof JobLeaseLostError || options.released()) throw err; // not ours any more: graphile-worker's fail is a no-op
        if (isConnectionLost(err) && !signal.aborted) {
          // The database went away under the job (a restart, a failover, a cut network): not the job's
          // fault, so once the database answers again it is retried (after 1 s) without spending an attempt.
          if (await unspendAttemptWhenReachable(helpers.withPgClient, lease, options.stopSignal)) {
            throw new Error(`the database connection was lost (${err instanceof Error ? err.message : String(err)}); retried without spending an attempt`.slice(0, 500), { cause: err });
          }
          throw err;
        }
        if (err instanceof PermanentJobError && !options.released()) {
          // Recorded as failed for good: this attempt becomes the last, so graphile-worker's own fail
          // keeps the row with its error (the `jobs` command lists it) and never retries it.
          await helpers.withPgClient((client) => client.query(`UPDATE ${GRAPHILE_SCHEMA}._private_jobs SET max_attempts = attempts WHERE id = $1 AND locked_by IS NOT NULL`, [helpers.job.id]));
        }
        throw err;
      }
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
  const working = new Set<string>();
  events.on('worker:create', ({ worker }) => {
    working.add(worker.workerId);
    options.onWorkerId(worker.workerId);
  });
  events.on('worker:stop', ({ worker }) => working.delete(worker.workerId));
  let announceStopping: (reason: string) => void = () => undefined;
  const stoppingByItself = new Promise<string>((resolve) => (announceStopping = resolve));
  events.on('pool:gracefulShutdown', ({ message }) => {
    if (!options.stopSignal.aborted && !options.stopRequested?.()) announceStopping(message);
  });
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
    crontab: SWEEP_CRONTAB,
    logger: quietLogger,
  });
  if (!pool) throw new Error('graphile-worker started without announcing its worker pool');
  return { runner, pool, slots: () => working.size, stoppingByItself };
}
