/**
 * The one job interface: kinds, their payloads (zod, parsed again when a worker takes a job, since
 * a job row is data from the database), and the queue both backends implement: graphile-worker on
 * PostgreSQL, an in-process queue on the embedded SQLite default.
 */
import { z } from 'zod';
import { RunOneInputSchema } from '../schemas/run-settings';
import { MAX_EPOCHS } from '../eval';
import type { JobLease } from '../db/core';

/** A suite or matrix: the worker fans it out into one job per (setting, case). */
export const SuiteJobSchema = z.object({
  suiteRunId: z.string().min(1),
  /** The dataset directory (resolved from the allow-list or the CLI's --dataset when enqueued). */
  datasetDir: z.string().min(1),
  goldenPath: z.string().min(1),
  /** The settings to run (`none`, `flag+flag`, …): one for an eval, the five for a matrix. */
  settings: z.array(z.string().min(1)).min(1),
  /** A tool server from config/mcp-servers.json, by id (each worker connects to it itself). */
  toolServer: z.string().min(1).optional(),
  /** Runs per case (issue 35); absent on suites queued before epochs: one. */
  epochs: z.number().int().min(1).max(MAX_EPOCHS).optional(),
});
export type SuiteJob = z.infer<typeof SuiteJobSchema>;

/** One golden case of a suite under one setting, one epoch of it. */
export const SuiteCaseJobSchema = SuiteJobSchema.omit({ settings: true, epochs: true }).extend({
  setting: z.string().min(1),
  caseId: z.string().min(1),
  /** Which repetition of the case, from 0 (absent on jobs queued before epochs: 0). */
  epoch: z.number().int().min(0).max(MAX_EPOCHS - 1).optional(),
});
export type SuiteCaseJob = z.infer<typeof SuiteCaseJobSchema>;

/** A governed run to resume after its request was decided (or expired). */
export const ResumeJobSchema = z.object({ runId: z.string().min(1) });
export type ResumeJob = z.infer<typeof ResumeJobSchema>;

/** One run started from the dashboard on PostgreSQL, stored as `queued` (lib/runs/queued.ts queueRun). */
export const RunJobSchema = z.object({
  runId: z.string().min(1),
  input: RunOneInputSchema,
  caller: z.object({ id: z.string().min(1), tenant: z.string().min(1) }),
});
export type RunJob = z.infer<typeof RunJobSchema>;

/** The periodic sweeps: approval expiry, stuck `resuming` runs, reconciliation of unstored runs, evidence seals. */
export const SweepJobSchema = z.object({});

/** One webhook delivery (lib/notify deliverOnce): one attempt per job attempt, the engine's backoff between. */
export const WebhookJobSchema = z.object({ deliveryId: z.string().min(1) });

/** Scores finished runs with their tenant's online evaluators and rolls them up per hour (lib/watch): drains the outbox. */
export const WatchJobSchema = z.object({});

/** The watch job's key: one drain queued at a time. */
export const WATCH_JOB_KEY = 'watch';

/** One step of an evaluator backfill (lib/watch/backfill.ts); the next step is its own job. */
export const BackfillJobSchema = z.object({
  backfillId: z.string().min(1),
  /** Which step (0: the first, or a nudge of one whose step was lost). */
  step: z.number().int().min(0).optional(),
});

/** A backfill step's job key: each step its own, so a step can enqueue the next while it runs (the in-process queue adds nothing under a key that runs). */
export const backfillJobKey = (backfillId: string, step = 0) => `backfill:${backfillId}:${step}`;

export const JOB_SCHEMAS = {
  run: RunJobSchema,
  suite: SuiteJobSchema,
  'suite-case': SuiteCaseJobSchema,
  'governed-resume': ResumeJobSchema,
  sweep: SweepJobSchema,
  webhook: WebhookJobSchema,
  watch: WatchJobSchema,
  backfill: BackfillJobSchema,
} as const;

export type JobKind = keyof typeof JOB_SCHEMAS;
export type JobPayload<K extends JobKind> = z.infer<(typeof JOB_SCHEMAS)[K]>;

export interface EnqueueOptions {
  /**
   * Job key: one job per key, with the kind's graphile-worker key mode (lib/jobs/graphile.ts
   * JOB_KEY_MODES); a job failed for good is replaced, so it never blocks later work.
   */
  key?: string;
  /** Attempts before the job is given up (default JOB_MAX_ATTEMPTS). */
  maxAttempts?: number;
  /** Among jobs ready at once, lower runs first (an integer in JOB_PRIORITY_RANGE; default 0). */
  priority?: number;
  /**
   * The job uses nothing but this process's CPU and database (a suite case of an offline model on the
   * in-process tools): the in-process queue runs up to CPU_ONLY_CONCURRENCY of them beside its
   * concurrency, which bounds jobs that wait on a provider or a tool server. Workers ignore it.
   */
  cpuOnly?: boolean;
}

/** One job of an enqueueMany. */
export type EnqueueJob<K extends JobKind> = { payload: JobPayload<K> } & Pick<EnqueueOptions, 'key' | 'priority' | 'cpuOnly'>;

/** The priorities a job may have (graphile-worker stores them as a smallint). */
export const JOB_PRIORITY_RANGE = { min: -32_768, max: 32_767 } as const;

/** What a handler learns about the attempt it runs. */
export interface JobContext {
  /** Aborts when the worker shuts down. */
  signal: AbortSignal;
  attempt: number;
  maxAttempts: number;
  /** Enqueues follow-up jobs (the fan-out of a suite). */
  queue: JobQueue;
  /**
   * The job's lease on the PostgreSQL queue (absent in-process): a handler passes it to every store
   * it makes, which refuses (JobLeaseLostError, lib/db/core/job-lease.ts) once the job was released to
   * another worker. The job is held while this worker's heartbeat is younger than WORKER_LEASE_MS.
   */
  lease?: JobLease;
  /**
   * Told by a handler whose last statement read the job as still held under `lease` (the suite
   * case's count, finishSuiteIfComplete): the job is then completed without asking again (a round
   * trip of each run a worker stores). A handler that writes or waits after that read does not call it.
   */
  leaseConfirmed?: () => void;
}

export type JobHandler<K extends JobKind> = (payload: JobPayload<K>, ctx: JobContext) => Promise<void>;
export type JobHandlers = { [K in JobKind]: JobHandler<K> };

/** The queue the web server, the CLI and the workers enqueue on. */
export interface JobQueue {
  readonly backend: 'in-process' | 'graphile-worker';
  enqueue<K extends JobKind>(kind: K, payload: JobPayload<K>, options?: EnqueueOptions): Promise<void>;
  /** Enqueues many jobs of one kind in one round trip where the backend allows it. */
  enqueueMany<K extends JobKind>(kind: K, jobs: ReadonlyArray<EnqueueJob<K>>): Promise<void>;
  close(): Promise<void>;
}

/** Attempts per job before it is given up (transient failures: a dropped connection, a busy database). */
export const JOB_MAX_ATTEMPTS = 5;

/**
 * A job that can never succeed (a malformed payload, a configuration or harness error, a suite
 * that cannot run here): recorded as failed at once with this message, never retried. Its
 * suite or run already says so where it applies.
 */
export class PermanentJobError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PermanentJobError';
  }
}
