/**
 * The in-process backend of the job interface, for the embedded SQLite default: `npm start` alone
 * does everything on one machine. Jobs run in this process with a bounded concurrency, yielding to
 * the event loop between jobs so pages keep being served; a failed attempt is retried with
 * exponential backoff; a key already queued or running adds nothing. Durability comes from the
 * database: a suite's stored cases are its progress, and a start enqueues every unfinished suite
 * again (lib/jobs/recover.ts), whose stored cases are skipped.
 *
 * Jobs enqueued `cpuOnly` (a suite case of an offline model) have slots of their own: the
 * concurrency bounds calls to providers and tool servers, and these make none. Each still runs in
 * its own turn of the event loop; what they gain by running together is storing together (the
 * cases of one turn share one SQLite commit, lib/db/suites/suite-jobs.ts).
 */
import { setMaxListeners } from 'node:events';
import { JOB_MAX_ATTEMPTS, PermanentJobError, type EnqueueJob, type EnqueueOptions, type JobHandlers, type JobKind, type JobPayload, type JobQueue } from './types';
import { withJobPolicy } from './handlers';

/** First retry delay; doubles per attempt up to RETRY_MAX_MS. */
export const RETRY_BASE_MS = 500;
const RETRY_MAX_MS = 30_000;

/** `cpuOnly` jobs run at once (beside the concurrency): how many cases share a commit. */
export const CPU_ONLY_CONCURRENCY = 16;

interface QueuedJob {
  kind: JobKind;
  payload: unknown;
  key?: string;
  /** Lower runs first; equal priorities run in the order they were enqueued. */
  priority: number;
  cpuOnly: boolean;
  attempt: number;
  maxAttempts: number;
}

export class InProcessQueue implements JobQueue {
  readonly backend = 'in-process' as const;
  private readonly pending: QueuedJob[] = [];
  private readonly keys = new Set<string>();
  private readonly timers = new Set<NodeJS.Timeout>();
  /** Jobs running now, in the concurrency's slots and in the cpuOnly ones. */
  private running = 0;
  private runningCpuOnly = 0;
  private readonly controller = new AbortController();
  private idleWaiters: Array<() => void> = [];

  constructor(
    private readonly handlers: JobHandlers,
    private readonly concurrency: number,
    private readonly cpuOnlyConcurrency: number = CPU_ONLY_CONCURRENCY,
  ) {
    if (!Number.isInteger(concurrency) || concurrency < 1) throw new RangeError(`concurrency must be an integer >= 1 (got ${concurrency})`);
    if (!Number.isInteger(cpuOnlyConcurrency) || cpuOnlyConcurrency < 1) throw new RangeError(`cpuOnlyConcurrency must be an integer >= 1 (got ${cpuOnlyConcurrency})`);
    // Every running job listens for the queue closing.
    setMaxListeners(concurrency + cpuOnlyConcurrency + 10, this.controller.signal);
  }

  async enqueue<K extends JobKind>(kind: K, payload: JobPayload<K>, options: EnqueueOptions = {}): Promise<void> {
    if (options.key !== undefined) {
      if (this.keys.has(options.key)) return;
      this.keys.add(options.key);
    }
    this.add({ kind, payload, key: options.key, priority: options.priority ?? 0, cpuOnly: options.cpuOnly === true, attempt: 1, maxAttempts: options.maxAttempts ?? JOB_MAX_ATTEMPTS });
    this.pump();
  }

  async enqueueMany<K extends JobKind>(kind: K, jobs: ReadonlyArray<EnqueueJob<K>>): Promise<void> {
    for (const { payload, ...options } of jobs) await this.enqueue(kind, payload, options);
  }

  /** Queues a job behind every pending job of its priority or a lower one (a stable priority order). */
  private add(job: QueuedJob): void {
    const at = this.pending.findIndex((p) => p.priority > job.priority);
    if (at === -1) this.pending.push(job);
    else this.pending.splice(at, 0, job);
  }

  /** Jobs queued, waiting for a retry, or running. */
  size(): number {
    return this.pending.length + this.running + this.runningCpuOnly + this.timers.size;
  }

  /** Resolves when nothing is queued, retrying or running (tests, the CLI). */
  idle(): Promise<void> {
    if (this.size() === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  async close(): Promise<void> {
    this.controller.abort(new DOMException('the queue is closing', 'AbortError'));
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    this.pending.length = 0;
  }

  private hasSlot(job: QueuedJob): boolean {
    return job.cpuOnly ? this.runningCpuOnly < this.cpuOnlyConcurrency : this.running < this.concurrency;
  }

  private pump(): void {
    // The first pending job (in priority order) of each kind of slot that has one free.
    for (let i = 0; i < this.pending.length && !this.controller.signal.aborted; ) {
      if (this.running >= this.concurrency && this.runningCpuOnly >= this.cpuOnlyConcurrency) break;
      const job = this.pending[i]!;
      if (!this.hasSlot(job)) {
        i += 1;
        continue;
      }
      this.pending.splice(i, 1);
      if (job.cpuOnly) this.runningCpuOnly += 1;
      else this.running += 1;
      // setImmediate: the action that enqueued answers first, and pages are served between jobs.
      setImmediate(() => void this.execute(job));
    }
    if (this.size() === 0) {
      const waiters = this.idleWaiters;
      this.idleWaiters = [];
      for (const w of waiters) w();
    }
  }

  private async execute(job: QueuedJob): Promise<void> {
    try {
      const handler = withJobPolicy(job.kind, this.handlers[job.kind] as never);
      await handler(job.payload, { signal: this.controller.signal, attempt: job.attempt, maxAttempts: job.maxAttempts, queue: this });
      if (job.key !== undefined) this.keys.delete(job.key);
    } catch (err) {
      if (job.attempt >= job.maxAttempts || err instanceof PermanentJobError || this.controller.signal.aborted) {
        console.error(`[job ${job.kind}] failed for good after ${job.attempt} attempt(s): ${err instanceof Error ? err.message : String(err)}`);
        if (job.key !== undefined) this.keys.delete(job.key);
      } else {
        const delay = Math.min(RETRY_MAX_MS, RETRY_BASE_MS * 2 ** (job.attempt - 1));
        const timer = setTimeout(() => {
          this.timers.delete(timer);
          this.add({ ...job, attempt: job.attempt + 1 });
          this.pump();
        }, delay);
        timer.unref();
        this.timers.add(timer);
      }
    } finally {
      if (job.cpuOnly) this.runningCpuOnly -= 1;
      else this.running -= 1;
      this.pump();
    }
  }
}
