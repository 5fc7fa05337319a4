/**
 * Queuing a suite or a matrix: the suite row (queued, with the job that works on it) and one job
 * that a worker fans out per (setting, case). The dashboard's actions and the CLI's `--queue` both
 * come here, handing in the queue; nothing runs in the caller's process unless the queue is the
 * in-process one.
 */
import type { HarnessConfig } from '../harness';
import { MATRIX_SETTINGS, checkEpochs } from '../eval';
import type { GoldenFile } from '../eval';
import type { Dataset } from '../stockroom';
import { getDb, type Database } from '../db/core';
import { createSuiteRun } from '../db/suites';
import { newId } from '../db/core';
import type { RunMatrixInput, RunSuiteInput } from '../schemas/run-settings';
import { getGoldenSetOrThrow } from '../db/review';
import { goldenOf, resolveDataset } from './datasets';
import type { RunCaller } from './prepare';
import type { RunQueue, SuiteSpec } from './queue-port';
import { estimateMatrix, type MatrixEstimateInput } from './matrix-estimate';
import { formatLiveEstimate, type LiveEstimate } from './live-estimate';
import { configWithServer, settingLabel } from './settings';
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
  /** Runs per case (default 1): each (setting, case) is stored this many times, by epoch. */
  epochs?: number;
}

/** Records a queued suite and enqueues its job; returns at once with its id. */
export async function queueSuite(input: QueueSuiteInput, queue: RunQueue, db: Database = getDb()): Promise<{ suiteRunId: string; total: number }> {
  const suiteRunId = newId();
  const epochs = checkEpochs(input.epochs ?? 1);
  const job: SuiteSpec = {
    suiteRunId,
    datasetDir: input.dataset.dir,
    goldenPath: input.golden.path,
    settings: [...input.settings],
    ...(input.toolServer !== undefined ? { toolServer: input.toolServer } : {}),
    ...(epochs > 1 ? { epochs } : {}),
  };
  const total = input.golden.cases.length * input.settings.length * epochs;
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
  await queue.enqueueSuite(job);
  return { suiteRunId, total };
}

/** The newest version of the tenant's stored set `name` (NotFoundError when it has none), or the dataset's bundled golden file. */
async function goldenFor(name: string | undefined, tenant: string, dataset: Dataset): Promise<GoldenFile> {
  return name ? getGoldenSetOrThrow(tenant, name, null) : goldenOf(dataset);
}

/** Queues the golden suite under one setting on the caller's tenant's dataset; returns at once with the suite id to poll. */
export async function startSuite(input: RunSuiteInput, caller: RunCaller, queue: RunQueue): Promise<{ suiteRunId: string; total: number }> {
  const { dataset, tenant } = resolveDataset(input.datasetId, caller.tenant);
  // A configured tool server decides the transport (an unknown id is refused here, before queueing).
  const { config } = configWithServer(input, input.weaknesses, tenant);
  const settings = [settingLabel(config.weaknesses)];
  const golden = await goldenFor(input.goldenSet, tenant, dataset);
  return queueSuite({ kind: 'eval', dataset, golden, config, settings, owner: { createdBy: caller.id, tenant }, toolServer: input.toolServer, epochs: input.epochs }, queue);
}

/**
 * What the matrix `input` would cost and roughly how long it takes on its live model, before it is
 * started (the page asks to confirm); null for the offline models. Resolved as startMatrix resolves it.
 */
export async function estimateMatrixFor(input: RunMatrixInput, caller: RunCaller, limitOf: MatrixEstimateInput['limitOf']): Promise<{ model: string; epochs: number; estimate: LiveEstimate | null; text: string | null }> {
  const { dataset, tenant } = resolveDataset(input.datasetId, caller.tenant);
  const { config } = configWithServer(input, [], tenant);
  const golden = await goldenFor(input.goldenSet, tenant, dataset);
  const epochs = input.epochs ?? 1;
  const estimate = await estimateMatrix({ dataset, golden, config, epochs, limitOf });
  return { model: config.model, epochs, estimate, text: estimate ? formatLiveEstimate(estimate, config.model) : null };
}

/** Queues the weakness matrix (every setting of MATRIX_SETTINGS) on the caller's tenant's dataset; returns at once with the suite id. */
export async function startMatrix(input: RunMatrixInput, caller: RunCaller, queue: RunQueue): Promise<{ suiteRunId: string; total: number }> {
  const { dataset, tenant } = resolveDataset(input.datasetId, caller.tenant);
  const { config } = configWithServer(input, [], tenant);
  const golden = await goldenFor(input.goldenSet, tenant, dataset);
  return queueSuite({ kind: 'matrix', dataset, golden, config, settings: MATRIX_SETTINGS, owner: { createdBy: caller.id, tenant }, toolServer: input.toolServer, epochs: input.epochs }, queue);
}
