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
import type { ResumeOwner } from '../governance/governance-store';
import { isDatabaseUnavailable } from '../db/errors';
import { repairStoredRun, resumeAfterDecision } from '../runs/governed-resume';
import { reconcileUnknownEffects, runsToSweep, SWEEP_BATCH } from '../runs/sweeper';
import type { JobQueue } from './types';

/** Waits between tries of a resume whose database was unreachable: 0.5 s, doubling, at most this. */
export const RESUME_RETRY_MAX_MS = 4_000;
/** How long one job attempt keeps retrying a resume while the database is unreachable, before the attempt fails. */
export const RESUME_RETRY_WINDOW_MS = 120_000;

const pause = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(t), resolve()), { once: true });
  });

/**
 * Resumes the run; another worker having resumed it first is success, not failure. `owner`: the
 * worker and job attempt (the resume is held through the job's lease, so the next attempt of this
 * job, or any attempt once this worker is gone, takes the run over at once). A resume that failed
 * because the database was unreachable (a restart, a cut connection) is tried again within this
 * attempt after a wait of seconds, so it spends no attempt and no retry backoff of the queue; its
 * run is still held by this attempt, which takes it over.
 */
export async function resumeGovernedJob(runId: string, owner?: ResumeOwner, signal?: AbortSignal): Promise<'resumed' | 'taken-elsewhere'> {
  const until = Date.now() + RESUME_RETRY_WINDOW_MS;
  for (let wait = 500; ; wait = Math.min(wait * 2, RESUME_RETRY_MAX_MS)) {
    try {
      await resumeAfterDecision(runId, owner);
      return 'resumed';
    } catch (err) {
      if (err instanceof ConflictError) return 'taken-elsewhere';
      if (!isDatabaseUnavailable(err) || Date.now() + wait > until || signal?.aborted) throw err;
      console.error(`stockroom worker: resuming run ${runId} failed, the database is unreachable; trying again in ${wait} ms`);
      await pause(wait, signal);
    }
  }
}

/** One sweep, as jobs. Returns the run ids it enqueued a resume for. */
export async function sweepAsJobs(queue: JobQueue, now: Date = new Date()): Promise<string[]> {
  const due = await runsToSweep(now);
  if (due.length > 0) await queue.enqueueMany('governed-resume', due.map((runId) => ({ payload: { runId }, key: `governed-resume:${runId}` })));
  for (const runId of await unstoredGovernedRuns(getDb().prisma, SWEEP_BATCH)) {
    await repairStoredRun(runId).catch((err: unknown) => console.error(`stockroom: storing governed run ${runId} failed again`, err));
  }
  await reconcileUnknownEffects(now);
  await sealEvidenceChains(getDb().prisma);
  return due;
}
