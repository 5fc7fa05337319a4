/**
 * A run started from the dashboard on PostgreSQL is a job: checked here (every refusal before
 * anything is stored), stored as `queued` so its replay page can follow it from the start, and
 * enqueued (keyed by run) for whichever worker takes it; the worker's side is runQueuedRun.
 */
import type { RunResult } from '../harness';
import { ConfigError } from '../harness';
import { getDb, type Database } from '../db/core';
import { claimQueuedRun, endRunsUnfinished } from '../db/runs';
import type { JobLease } from '../db/core';
import { deleteRun } from '../db/runs';
import type { RunOneInput } from '../schemas/run-settings';
import { InputError } from './errors';
import { executeRun } from './execute';
import { prepareRun, type PreparedRun, type RunCaller } from './prepare';
import type { QueuedRunJob, RunQueue } from './queue-port';
import { storeRunSoFar } from './store';

/** What a queued run's record says until a worker takes it. */
function queuedRecord(p: PreparedRun): RunResult {
  return {
    runId: p.meta.id,
    caseId: p.golden?.id ?? null,
    query: p.query,
    finalAnswer: '',
    terminationReason: 'COMPLETED',
    trajectory: [],
    transitions: [],
    usage: { modelCalls: 0, inputTokens: 0, outputTokens: 0, totalTokens: 0, perCall: [] },
    costEstimate: { usd: 0, note: 'not run yet', known: true },
    steps: 0,
    startedAt: new Date().toISOString(),
    durationMs: 0,
    mode: p.config.mode,
    modelId: p.config.model,
    weaknesses: [...p.config.weaknesses].sort(),
    systemPrompt: '',
    toolSpecs: [],
    modelInputs: [],
    status: 'queued',
    checkpoint: null,
  };
}

/** Stores the run as queued and enqueues it; nothing is left behind when the enqueue fails. */
export async function queueRun(input: RunOneInput, caller: RunCaller, queue: RunQueue): Promise<{ runId: string }> {
  const p = prepareRun(input, caller);
  await storeRunSoFar(queuedRecord(p), p.meta);
  try {
    await queue.enqueueRun({ runId: p.meta.id, input, caller: { id: caller.id, tenant: caller.tenant } });
  } catch (err) {
    await deleteRun(p.meta.id).catch(() => undefined);
    throw err;
  }
  return { runId: p.meta.id };
}

/** What a run says when it could not run on the worker that took it. */
export const couldNotStartAnswer = (why: string) => `A worker could not start this run: ${why}`;

/**
 * A worker's side of queueRun. The run is claimed by compare-and-set (queued → running), so a run
 * stopped while queued, deleted, or already finished is skipped; one still `running` was taken by a
 * worker that died, and runs again from the start under the same id. A refusal on this machine (the
 * dataset or a credential missing here) ends the run saying so; anything else is retried by the queue.
 */
export async function runQueuedRun(job: QueuedRunJob, db: Database = getDb(), lease?: JobLease): Promise<'ran' | 'skipped' | 'refused'> {
  if ((await claimQueuedRun(job.runId, db)) === 'not-queued') return 'skipped';
  let prepared: PreparedRun;
  try {
    prepared = prepareRun(job.input, job.caller, job.runId);
  } catch (err) {
    if (!(err instanceof InputError || err instanceof ConfigError)) throw err;
    await endRunsUnfinished({ id: job.runId, status: 'running' }, couldNotStartAnswer(err.message), db);
    return 'refused';
  }
  // Under its job's lease: a worker that lost the job (paused, cut off) stores nothing over the new owner's run.
  await (await executeRun(prepared, { replace: true, ...(lease ? { lease } : {}) })).done;
  return 'ran';
}
