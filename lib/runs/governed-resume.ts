import 'server-only';
/**
 * A paused governed run continues once its request is decided (or expires): resumeGovernedRun
 * claims it by compare-and-set, re-validates every bound field and runs on; the stored run is
 * replaced with the continued one. Also the repair of a run whose storing failed after it moved on.
 */
import { resumeGovernedRun, type GovernedOutcome } from '../governance';
import type { ResumeOwner } from '../governance';
import { getDb } from '../db/core';
import { clearGovernedFailure, ensureRunFinishedEvidence, getGovernedRunOrThrow } from '../db/governance';
import { resolveDataset } from './datasets';
import { governedMeta, specOf, withGovernedContext } from './governed-context';
import { truthfully } from './governed-failure';
import { storeRunSoFar } from './store';
import { notifyGovernedRun } from './notifications';
import type { DeliveryQueue } from '../notify';

/**
 * Resumes the run and replaces its stored run. Throws ConflictError when another worker resumed it
 * first. `owner`: the job worker and attempt it runs under (absent in a server process).
 */
export async function resumeAfterDecision(runId: string, owner?: ResumeOwner, notify?: DeliveryQueue): Promise<GovernedOutcome> {
  const stored = await getGovernedRunOrThrow(getDb().prisma, runId);
  const spec = specOf(runId, stored.spec);
  const out = await truthfully(runId, 'resume', async () => {
    const { dataset } = resolveDataset(spec.datasetId, spec.tenant);
    const out = await withGovernedContext(runId, spec, dataset, (ctx) => resumeGovernedRun(ctx, runId), owner, stored.principal.subject);
    await storeRunSoFar(out.result, governedMeta(spec, dataset, runId, stored.principal.subject));
    await clearGovernedFailure(getDb().prisma, runId);
    return out;
  });
  // Paused again, expired, denied or ended other than COMPLETED: whoever listens is told (recorded here, sent by jobs).
  await notifyGovernedRun(runId, notify);
  return out;
}

/**
 * Stores the run a governed run finished with when storing it failed after the governed run moved
 * on (its writes were already committed): the runs list and replay then show what happened.
 */
export async function repairStoredRun(runId: string, options: { settledMs?: number; waitToSettle?: boolean } = {}): Promise<void> {
  const prisma = getDb().prisma;
  const settledMs = options.settledMs ?? REPAIR_SETTLED_MS;
  const stored = await getGovernedRunOrThrow(prisma, runId);
  const spec = specOf(runId, stored.spec);
  const { dataset } = resolveDataset(spec.datasetId, spec.tenant);
  await storeRunSoFar(stored.result, governedMeta(spec, dataset, runId, stored.principal.subject));
  // The events a lost connection took with it: run_finished is required by audit verify.
  let evidence = await ensureRunFinishedEvidence(prisma, stored, settledMs);
  if (evidence === 'not-settled' && options.waitToSettle) {
    // A retried resume job waits out the rest of the window (seconds) instead of leaving the run's
    // evidence incomplete until the next sweep: the flush it might be racing has ended by then.
    await new Promise((r) => setTimeout(r, Math.max(0, Date.parse(stored.updatedAt) + settledMs - Date.now())));
    evidence = await ensureRunFinishedEvidence(prisma, await getGovernedRunOrThrow(prisma, runId), settledMs);
  }
  // Too fresh to tell a lost event from one still being flushed: the mark stays and the sweep comes back.
  if (evidence === 'not-settled') return;
  await clearGovernedFailure(prisma, runId);
}

/**
 * How long after a run was marked finished the sweep may add its missing run_finished event: a resume
 * flushes its batched evidence right after that mark, so a run younger than this may still be mid-flush.
 */
export const REPAIR_SETTLED_MS = 30_000;
