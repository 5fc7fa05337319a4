/**
 * What a run is stored with besides its RunResult, and the one way the run service stores runs.
 */
import type { HarnessConfig } from '../harness';
import type { RunResult } from '../harness';
import type { AgentRunOptions, Dataset } from '../stockroom';
import { getDb, type Database } from '../db/core';
import { replaceRun, saveRun } from '../db/runs';
import type { JobLease } from '../db/core';
import type { SaveRunMeta } from '../db/runs';
import { answerSoFarRecorder, toolProgressRecorder } from '../db/runs';
import { nudgeRunProgress } from './progress-hub';

/** Who starts a run, and the tenant it belongs to (its dataset's). */
export interface RunOwner {
  /** The user id the run is attributed to. */
  createdBy: string;
  tenant: string;
}

/** What a run is stored with besides its RunResult. */
export function metaFor(dataset: Dataset, config: HarnessConfig, category: string | null, suiteRunId: string | null, owner: RunOwner, governed = false): Omit<SaveRunMeta, 'config'> & { config: Record<string, unknown> } {
  return {
    createdBy: owner.createdBy,
    tenant: owner.tenant,
    governed,
    datasetName: dataset.name,
    datasetHash: dataset.hash,
    transport: config.transport,
    category,
    config: config as unknown as Record<string, unknown>,
    suiteRunId,
  };
}

/** Stores one finished run (one transaction) and returns its id. */
export function storeRun(run: RunResult, meta: SaveRunMeta, db: Database = getDb()): Promise<string> {
  return saveRun(run, meta, db);
}

/**
 * Stores a run in progress under its id, replacing what was stored of it (a live run is stored from its
 * start and after each step, so its replay can follow it); the finished run is stored the same way.
 */
export function storeRunSoFar(run: RunResult, meta: SaveRunMeta & { id: string }, db: Database = getDb(), lease?: JobLease): Promise<void> {
  return replaceRun(run, meta, db, lease);
}

/**
 * The observers that store a live run as it goes, under `meta.id`: the run so far after each step
 * (`stored` told after each), a tool's progress and a streamed answer as it forms. Once `signal` is
 * aborted no more steps are stored (the row keeps saying `stopping` until the run's end is stored).
 */
export function liveRecorders(
  meta: SaveRunMeta & { id: string },
  options: { db?: Database; lease?: JobLease; signal?: AbortSignal; stored?: () => void } = {},
): Pick<AgentRunOptions, 'onStep' | 'onToolProgress' | 'onModelText'> {
  const { db, lease, signal, stored } = options;
  return {
    onStep: (soFar) =>
      signal?.aborted
        ? undefined
        : storeRunSoFar(soFar, meta, db, lease).then(() => {
            nudgeRunProgress(meta.id);
            stored?.();
          }),
    onToolProgress: toolProgressRecorder(meta.id, db),
    onModelText: answerSoFarRecorder(meta.id, db),
  };
}
