/**
 * The in-process backend of the job interface, for the embedded SQLite default: `npm start` alone
 * does everything on one machine. Jobs run in this process with a bounded concurrency, yielding to
 * the event loop between jobs so pages keep being served; a failed attempt is retried with
 * exponential backoff; a key already queued or running adds nothing. Durability comes from the
 * database: a suite's stored cases are its progress, and a start enqueues every unfinished suite
 * again (lib/jobs/recover.ts), whose stored cases are skipped.
 */
import { JOB_MAX_ATTEMPTS, PermanentJobError, type EnqueueOptions, type JobHandlers, type JobKind, type JobPayload, type JobQueue } from './types';
import { withJobPolicy } from './handlers';

/** First retry delay; doubles per attempt up to RETRY_MAX_MS. */
export const RETRY_BASE_MS = 500;
const RETRY_MAX_MS = 30_000;

interface QueuedJob {
  kind: JobKind;
  payload: unknown;
  key?: string;
  /** Lower runs first; equal priorities run in the order they were enqueued. */
  priority: number;
  attempt: number;
  maxAttempts: number;
}

export class InProcessQueue implements JobQueue {
  readonly backend = 'in-process' as const;
  private readonly pending: QueuedJob[] = [];
  private readonly keys = new Set<string>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private running = 0;
  private readonly controller = new AbortController();
  private idleWaiters: Array<() => void> = [];

  constructor(
    private readonly handlers: JobHandlers,
    private readonly concurrency: number,
  ) {
    if (!Number.isInteger(concurrency) || concurrency < 1) throw new RangeError(`concurrency must be an integer >= 1 (got ${concurrency})`);
  }

  async enqueue<K extends JobKind>(kind: K, payload: JobPayload<K>, options: EnqueueOptions = {}): Promise<void> {
    if (options.key !== undefined) {
      if (this.keys.has(options.key)) return;
      this.keys.add(options.key);
    }
    this.add({ kind, payload, key: options.key, priority: options.priority ?? 0, attempt: 1, maxAttempts: options.maxAttempts ?? JOB_MAX_ATTEMPTS });
    this.pump();
  }

  async enqueueMany<K extends JobKind>(kind: K, jobs: ReadonlyArray<{ payload: JobPayload<K>; key?: string; priority?: number }>): Promise<void> {
    for (const j of jobs) await this.enqueue(kind, j.payload, { key: j.key, priority: j.priority });
  }

  /** Queues a job behind every pending job of its priority or a lower one (a stable priority order). */
  private add(job: QueuedJob): void {
    const at = this.pending.findIndex((p) => p.priority > job.priority);
    if (at === -1) this.pending.push(job);
    else this.pending.splice(at, 0, job);
  }

  /** Jobs queued, waiting for a retry, or running. */
  size(): number {
    return this.pending.length + this.running + this.timers.size;
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

  private pump(): void {
    while (this.running < this.concurrency && this.pending.length > 0 && !this.controller.signal.aborted) {
      const job = this.pending.shift()!;
      this.running += 1;
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
      this.running -= 1;
      this.pump();
    }
  }
}
