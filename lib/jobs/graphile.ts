/**
 * The PostgreSQL backend of the job interface: graphile-worker 0.17 (LISTEN/NOTIFY, so a queued job
 * starts within milliseconds, not a polling interval; jobs locked with `FOR UPDATE SKIP LOCKED`;
 * retries with exponential backoff; job keys). The web server only enqueues (GraphileQueue); the
 * workers (`npm run worker`) run the handlers (startGraphileRunner).
 */
import { EventEmitter } from 'node:events';
import { Logger, makeWorkerUtils, run, type Runner, type Task, type TaskList, type WorkerUtils } from 'graphile-worker';
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

  /** Releases the jobs locked by workers that are gone (their heartbeat stopped). */
  async releaseWorkers(workerIds: string[]): Promise<void> {
    if (workerIds.length === 0) return;
    await (await this.get()).forceUnlockWorkers(workerIds);
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
}

/** Starts a graphile-worker runner over the handlers. */
export async function startGraphileRunner(options: GraphileRunnerOptions): Promise<Runner> {
  const taskList: TaskList = {};
  for (const kind of Object.keys(options.handlers) as JobKind[]) {
    const handler = withJobPolicy(kind, options.handlers[kind] as never);
    const task: Task = async (payload, helpers) =>
      handler(payload, { signal: helpers.abortSignal ?? new AbortController().signal, attempt: helpers.job.attempts, maxAttempts: helpers.job.max_attempts, queue: options.queue });
    taskList[kind] = task;
  }
  // Handed in before the workers exist, so no worker:create is missed.
  const events = new EventEmitter() as NonNullable<Parameters<typeof run>[0]['events']>;
  events.on('pool:create', ({ workerPool }) => options.onWorkerId(workerPool.id));
  events.on('worker:create', ({ worker }) => options.onWorkerId(worker.workerId));
  const runner = await run({
    events,
    connectionString: options.connectionString,
    schema: GRAPHILE_SCHEMA,
    concurrency: options.concurrency,
    // The pool serves the jobs' lock/complete queries; the data layer has its own (Prisma).
    maxPoolSize: Math.max(4, options.concurrency + 2),
    pollInterval: options.pollInterval ?? 1_000,
    noHandleSignals: true,
    taskList,
    crontab: '', // the sweep is enqueued by the workers themselves (keyed), not by cron
    logger: quietLogger,
  });
  return runner;
}
