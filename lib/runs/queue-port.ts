/**
 * What the run service asks of a job queue, handed in by its caller (lib/jobs implements it), as
 * the harness is handed its clock and model: the run service never imports the job system.
 */
import type { RunOneInput } from '../schemas/run-settings';
import type { RunCaller } from './prepare';
import type { DeliveryQueue } from '../notify';

/** A run stored `queued`, for whichever worker takes it (queued.ts runQueuedRun). */
export interface QueuedRunJob {
  runId: string;
  input: RunOneInput;
  caller: RunCaller;
}

/** A suite or matrix, fanned out by a worker into one job per (setting, case). */
export type SuiteSpec = {
  suiteRunId: string;
  /** The dataset directory (resolved from the allow-list or the CLI's --dataset when enqueued). */
  datasetDir: string;
  goldenPath: string;
  /** The settings to run (`none`, `flag+flag`, …): one for an eval, the five for a matrix. */
  settings: string[];
  /** A tool server from config/mcp-servers.json, by id (each worker connects to it itself). */
  toolServer?: string;
  /** Runs per case (issue 35): each (setting, case) is run and stored this many times; one when absent. */
  epochs?: number;
};

/** Also where webhook deliveries go (one job each), so whatever moves a run can announce it. */
export interface RunQueue extends DeliveryQueue {
  /** True when queued work runs in worker processes, not in this one (PostgreSQL). */
  readonly remote: boolean;
  /** Enqueues a queued run, once per run id. */
  enqueueRun(job: QueuedRunJob): Promise<void>;
  /** Enqueues a suite's fan-out, once per suite. */
  enqueueSuite(spec: SuiteSpec): Promise<void>;
  /** Enqueues the resume of a decided governed run, once per run while one waits. */
  enqueueResume(runId: string): Promise<void>;
}
