/**
 * Governed runs as jobs: a resume after a decision (or an expired approval) runs on whichever worker
 * takes its job; the claim by compare-and-set on the run's state version (resumeGovernedRun) makes
 * it one resume however many workers or jobs try. The sweep finds due runs and enqueues one resume
 * job per run (keyed by run, so a sweep repeated while one is queued adds nothing), retries storing
 * runs whose storing failed (reconciliation), and seals new evidence chains.
 */
import { getDb } from '../db/core';
import { sealEvidenceChains } from '../db/governance';
import { sweepRetention } from '../db/traces';
import { findGovernedRun, STORE_PENDING, unstoredGovernedRuns } from '../db/governance';
import { ConflictError } from '../governance';
import type { ResumeOwner } from '../governance';
import { repairStoredRun, resumeAfterDecision } from '../runs/governed-resume';
import { reconcileUnknownEffects, runsToSweep, SWEEP_BATCH } from '../runs/sweeper';
import { WATCH_JOB_KEY, type JobQueue } from './types';
import type { DeliveryQueue } from '../notify';

/**
 * Resumes the run; another worker having resumed it first is success, not failure. `owner`: the job
 * lease it runs under (the resume is held through it, so the next attempt of this job, or any attempt
 * once this worker no longer holds the job, takes the run over at once). A resume that failed because
 * the database connection was lost is handed back without spending an attempt (lib/jobs/graphile.ts)
 * and its next attempt, the same job, takes the run over.
 */
export async function resumeGovernedJob(runId: string, owner?: ResumeOwner, notify?: DeliveryQueue): Promise<'resumed' | 'taken-elsewhere'> {
  try {
    await resumeAfterDecision(runId, owner, notify);
    return 'resumed';
  } catch (err) {
    if (!(err instanceof ConflictError)) throw err;
    // An earlier attempt may have marked the run finished and then lost the database before storing it
    // (STORE_PENDING): the stored run is repaired now, not at the next sweep, and its missing evidence
    // too once the finish is older than a resume's flush could be (waited for here: a few seconds).
    const governed = await findGovernedRun(getDb().prisma, runId);
    if (governed?.status === 'finished' && governed.lastError === STORE_PENDING) {
      await repairStoredRun(runId, { settledMs: JOB_REPAIR_SETTLED_MS, waitToSettle: true });
      return 'resumed';
    }
    return 'taken-elsewhere';
  }
}

/** A retried resume job adds a lost run_finished event once the finish is this old, waiting for it if need be. */
const JOB_REPAIR_SETTLED_MS = 5_000;

/** One sweep, as jobs. Returns the run ids it enqueued a resume for. */
export async function sweepAsJobs(queue: JobQueue, now: Date = new Date()): Promise<string[]> {
  const due = await runsToSweep(now);
  if (due.length > 0) await queue.enqueueMany('governed-resume', due.map((runId) => ({ payload: { runId }, key: `governed-resume:${runId}` })));
  for (const runId of await unstoredGovernedRuns(getDb().prisma, SWEEP_BATCH)) {
    await repairStoredRun(runId).catch((err: unknown) => console.error(`stockroom: storing governed run ${runId} failed again`, err));
  }
  await reconcileUnknownEffects(now);
  await sealEvidenceChains(getDb().prisma);
  await sweepRetention(now);
  // Finished runs still waiting for their evaluators (a poke lost with a restart) and the alert rules.
  await queue.enqueue('watch', {}, { key: WATCH_JOB_KEY });
  return due;
}

