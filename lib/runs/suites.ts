/**
 * Queuing a suite or a matrix: the suite row (queued, with the job that works on it) and one job
 * that a worker fans out per (setting, case). The dashboard's actions and the CLI's `--queue` both
 * come here; nothing runs in the caller's process unless the queue is the in-process one.
 */
import type { HarnessConfig } from '../harness/config';
import type { GoldenFile } from '../eval/golden';
import type { Dataset } from '../stockroom/dataset/types';
import { getDb, type Database } from '../db/client';
import { createSuiteRun } from '../db/suites';
import { newId } from '../db/ids';
import { getJobQueue } from '../jobs/queue';
import type { JobQueue, SuiteJob } from '../jobs/types';
import type { RunOwner } from './store';

export interface QueueSuiteInput {
  kind: 'eval' | 'matrix';
  dataset: Dataset;
  golden: GoldenFile;
  /** The suite's configuration (a matrix's settings add their weakness flags to it). */
  config: HarnessConfig;
  /** Setting labels: one for an eval, MATRIX_SETTINGS for a matrix. */
  settings: readonly string[];
  owner: RunOwner;
  /** A configured tool server's id (checked by the caller); none: the configuration's transport. */
  toolServer?: string;
}

/** Records a queued suite and enqueues its job; returns at once with its id. */
export async function queueSuite(input: QueueSuiteInput, options: { db?: Database; queue?: JobQueue } = {}): Promise<{ suiteRunId: string; total: number }> {
  const db = options.db ?? getDb();
  const queue = options.queue ?? getJobQueue();
  const suiteRunId = newId();
  const job: SuiteJob = { suiteRunId, datasetDir: input.dataset.dir, goldenPath: input.golden.path, settings: [...input.settings], ...(input.toolServer !== undefined ? { toolServer: input.toolServer } : {}) };
  const total = input.golden.cases.length * input.settings.length;
  await createSuiteRun(
    {
      id: suiteRunId,
      kind: input.kind,
      tenant: input.owner.tenant,
      createdBy: input.owner.createdBy,
      config: input.config as unknown as Record<string, unknown>,
      datasetName: input.dataset.name,
      datasetHash: input.dataset.hash,
      goldenSha256: input.golden.sha256,
      total,
      jobSpec: job,
    },
    db,
  );
  await queue.enqueue('suite', job, { key: `suite:${suiteRunId}` });
  return { suiteRunId, total };
}
