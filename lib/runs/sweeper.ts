import 'server-only';
/**
 * The governed-run sweeper (SQLite: the server, instrumentation-node.ts; PostgreSQL: the workers' sweep job). Nobody has to
 * open a run for it to move on: it resumes every paused run whose request was decided but whose
 * resume failed (a policy file briefly broken), finishes runs whose approval expired, and takes
 * over runs left `resuming` past the lease by a worker that died. A failure is kept on the run and
 * its request, and the next sweep tries again. It also seals new evidence chains into the anchor.
 */
import { getDb } from '../db/core';
import { findApprovalForCall } from '../db/governance';
import { sealEvidenceChains, writeEvidenceWitness } from '../db/governance';
import { sweepRetention } from '../db/traces';
import { findGovernedRun, governedRunsDue, unstoredGovernedRuns } from '../db/governance';
import { ConflictError, GovernanceError } from '../governance';
import { RESUME_LEASE_MS } from '../governance';
import { parseOwner } from '../governance';
import { jobHeld } from '../db/core';
import { PrismaJournalStore } from '../db/governance';
import { reconcileEntry } from '../governance';
import { isDemoFaultError } from './demo-fault';
import { reconcilerFor } from './ledger';
import { repairStoredRun, resumeAfterDecision } from './governed-resume';
import { notifyDueApprovals } from './notifications';
import type { DeliveryQueue } from '../notify';

/** How often the server sweeps. */
export const SWEEP_INTERVAL_MS = 30_000;
/** Most runs looked at per sweep (the next sweep takes the rest). */
export const SWEEP_BATCH = 100;

export interface SweepReport {
  /** Evidence chains sealed into the signed anchor. */
  sealed: number;
  resumed: string[];
  failed: { runId: string; error: string }[];
}

/** Runs that should move on without anyone touching them, as of `now`. */
export async function runsToSweep(now: Date): Promise<string[]> {
  const prisma = getDb().prisma;
  const rows = await governedRunsDue(prisma, new Date(now.getTime() - RESUME_LEASE_MS), SWEEP_BATCH);
  const due: string[] = [];
  for (const r of rows) {
    if (r.status === 'resuming') {
      // Held by a worker: due once the job engine's lease says its owner is gone (its job released,
      // failed or finished without moving the run on). Without an owner: past the time lease.
      const owner = r.owner ? parseOwner(r.owner) : null;
      if (!owner || !(await jobHeld(prisma, owner))) due.push(r.runId);
      continue;
    }
    const run = await findGovernedRun(prisma, r.runId).catch(() => null);
    const callId = run?.result.checkpoint?.awaiting.toolUseId;
    const req = callId ? await findApprovalForCall(prisma, r.runId, callId) : null;
    if (!req) continue;
    const expired = req.status === 'pending' && now.getTime() >= Date.parse(req.proposal.expiresAt);
    if (expired || req.status !== 'pending') due.push(r.runId);
  }
  return due;
}

/**
 * Effects left `unknown` because the downstream could not be asked when their run met them: each is
 * asked again through the Effects page's reconciler (the durable ledger, by operation key) with
 * backoff, at 1, 2, 4, 8… minutes after it became unknown (its age, so no counter is kept). An entry
 * left by instructor mode's "next write times out" fault stays for an operator, as the drill shows.
 */
export async function reconcileUnknownEffects(now: Date): Promise<string[]> {
  const journal = new PrismaJournalStore(getDb().prisma);
  const moved: string[] = [];
  for (const entry of await journal.list({ status: 'unknown' })) {
    if (isDemoFaultError(entry.error)) continue;
    const minutes = Math.floor((now.getTime() - Date.parse(entry.updatedAt)) / 60_000);
    if (minutes < 1 || (minutes & (minutes - 1)) !== 0) continue;
    try {
      await reconcileEntry(journal, reconcilerFor(), entry.operationKey);
      moved.push(entry.operationKey);
    } catch {
      // Still cannot be asked (or someone else reconciled it): the next power of two tries again.
    }
  }
  return moved;
}

/** One sweep: resumes every due run once. */
export async function sweepGovernedRuns(now: Date = new Date(), notify?: DeliveryQueue): Promise<SweepReport> {
  const report: SweepReport = { sealed: 0, resumed: [], failed: [] };
  for (const runId of await runsToSweep(now)) {
    try {
      await resumeAfterDecision(runId, undefined, notify);
      report.resumed.push(runId);
    } catch (err) {
      // Another worker took it: it moves on there.
      if (err instanceof ConflictError) continue;
      report.failed.push({ runId, error: err instanceof GovernanceError || err instanceof Error ? err.message : String(err) });
    }
  }
  // Runs that moved on but whose stored run could not be written: store it now.
  for (const runId of await unstoredGovernedRuns(getDb().prisma, SWEEP_BATCH)) {
    try {
      await repairStoredRun(runId);
      report.resumed.push(runId);
    } catch (err) {
      report.failed.push({ runId, error: err instanceof Error ? err.message : String(err) });
    }
  }
  await reconcileUnknownEffects(now);
  if (notify) await notifyDueApprovals(notify, now);
  await sweepRetention(now);
  report.sealed = await sealEvidenceChains(getDb().prisma);
  // Anchors moved by appends inside other transactions (a decision, a deleted run) reach the witness here.
  await writeEvidenceWitness(getDb().prisma);
  return report;
}
