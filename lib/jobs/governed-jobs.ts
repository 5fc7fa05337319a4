/**
 * Governed runs as jobs: a resume after a decision (or an expired approval) runs on whichever worker
 * takes its job; the claim by compare-and-set on the run's state version (resumeGovernedRun) makes
 * it one resume however many workers or jobs try. The sweep finds due runs and enqueues one resume
 * job per run (keyed by run, so a sweep repeated while one is queued adds nothing), retries storing
 * runs whose storing failed (reconciliation), and seals new evidence chains.
 */
import { getDb } from '../db/client';
import { sealEvidenceChains } from '../db/governance-evidence';
import { unstoredGovernedRuns } from '../db/governance-runs';
import { ConflictError } from '../governance/errors';
import { repairStoredRun, resumeAfterDecision } from '../runs/governed-resume';
import { runsToSweep, SWEEP_BATCH } from '../runs/sweeper';
import type { JobQueue } from './types';

/** Resumes the run; another worker having resumed it first is success, not failure. */
export async function resumeGovernedJob(runId: string): Promise<'resumed' | 'taken-elsewhere'> {
  try {
    await resumeAfterDecision(runId);
    return 'resumed';
  } catch (err) {
    if (err instanceof ConflictError) return 'taken-elsewhere';
    throw err;
  }
}

/** One sweep, as jobs. Returns the run ids it enqueued a resume for. */
export async function sweepAsJobs(queue: JobQueue, now: Date = new Date()): Promise<string[]> {
  const due = await runsToSweep(now);
  if (due.length > 0) await queue.enqueueMany('governed-resume', due.map((runId) => ({ payload: { runId }, key: `governed-resume:${runId}` })));
  for (const runId of await unstoredGovernedRuns(getDb().prisma, SWEEP_BATCH)) {
    await repairStoredRun(runId).catch((err: unknown) => console.error(`stockroom: storing governed run ${runId} failed again`, err));
  }
  await sealEvidenceChains(getDb().prisma);
  return due;
}
