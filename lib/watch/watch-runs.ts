/**
 * The `watch` job's work (issue 37): takes finished runs off the outbox (RunWatch, committed with each
 * run), scores each with its tenant's matching evaluators and adds it to the hourly rollup, each run in
 * one transaction with taking it off, so a run is scored and counted once whichever worker takes it.
 * Never in the request path: the OTLP receiver and the run service only leave the outbox row.
 */
import { randomUUID } from 'node:crypto';
import type { Judge } from '../eval';
import { getDb, type Database } from '../db/core';
import { enabledEvaluatorsOf } from '../db/review';
import { claimWatch, completeWatch, releaseWatch, type NewScore, type WatchCompletion } from '../db/review';
import { judgeAccess } from './judge-access';
import { watchClaimMs } from './claim-settings';
import { applyRollup } from '../db/review';
import { contributionOf, parseContribution, rollupDeltas, type Contribution } from './contribution';
import { getRunForEvaluators } from '../db/runs';
import { evaluatorsFor, scoreRun } from './score-run';

/** Runs read from the outbox at a time. */
export const WATCH_BATCH = 100;
/** Batches one job takes before it ends (the next job or sweep takes the rest), so a job stays short. */
export const WATCH_MAX_BATCHES = 50;

/**
 * Holds of drains in this process that failed and could not give their runs back then (the database
 * was away): the next drain here gives them back first, so a restart delays those runs by one retry
 * of the job, not by a whole hold. A process that died leaves its holds to expire.
 */
const unreleased = new Set<string>();

async function releaseLeftHolds(db: Database): Promise<void> {
  for (const token of [...unreleased]) {
    await releaseWatch(token, db);
    unreleased.delete(token);
  }
}

export interface WatchOptions {
  db?: Database;
  /** How long a hold on runs lasts (default watchClaimMs()). */
  claimMs?: number;
  signal?: AbortSignal;
  now?: () => Date;
  /** Builds a live judge (default: the models library's live door, loaded only when a live judge is defined). */
  liveJudge?: (spec: string) => Promise<Judge>;
}

export interface WatchReport {
  runs: number;
  scores: number;
}

/** Adds the taken runs to the hourly rollup, taking back first what a rebuilt run added before. */
async function rollInto(txDb: Database, taken: readonly WatchCompletion[], before: Map<string, string>): Promise<void> {
  const parts: Array<{ c: Contribution; sign: 1 | -1 }> = [];
  for (const t of taken) {
    const old = before.get(t.run.id);
    const previous = old === undefined ? null : parseContribution(old);
    if (previous) parts.push({ c: previous, sign: -1 });
    const now = t.contribution === null ? null : parseContribution(t.contribution);
    if (now) parts.push({ c: now, sign: 1 });
  }
  await applyRollup(txDb, rollupDeltas(parts));
}

/** Scores and rolls up the runs waiting, until none is left or WATCH_MAX_BATCHES batches are done. */
export async function watchPendingRuns(options: WatchOptions = {}): Promise<WatchReport> {
  const db = options.db ?? getDb();
  const now = options.now ?? (() => new Date());
  const access = judgeAccess({ db, now, signal: options.signal, liveJudge: options.liveJudge });
  const report: WatchReport = { runs: 0, scores: 0 };
  await releaseLeftHolds(db);
  const claim = { token: randomUUID(), ms: options.claimMs ?? watchClaimMs() };
  try {
    for (let batch = 0; batch < WATCH_MAX_BATCHES; batch++) {
      if (!(await drainBatch())) break;
    }
  } catch (err) {
    // Whatever this drain took and did not complete goes back now, or (the database away) at the next drain here.
    await releaseWatch(claim.token, db).catch(() => unreleased.add(claim.token));
    throw err;
  }
  return report;

  /** One batch claimed, scored and completed; false when none was waiting. */
  async function drainBatch(): Promise<boolean> {
    const runs = await claimWatch(WATCH_BATCH, claim, db, now());
    if (runs.length === 0) return false;
    const evaluators = await enabledEvaluatorsOf([...new Set(runs.map((r) => r.tenant))], db);
    const done: WatchCompletion[] = [];
    for (const run of runs) {
      options.signal?.throwIfAborted();
      const matched = evaluatorsFor(evaluators.get(run.tenant) ?? [], run);
      let scores: NewScore[] = [];
      if (matched.length > 0) {
        const stored = await getRunForEvaluators(run.id, db);
        if (!stored) continue; // deleted meanwhile: its outbox row went with it
        scores = await scoreRun(run.id, stored, matched, access);
      }
      done.push({ run, scores, contribution: JSON.stringify(contributionOf(run, scores)) });
    }
    const taken = await completeWatch(done, claim.token, db, rollInto, now());
    report.runs += taken.length;
    report.scores += done.filter((d) => taken.includes(d.run.id)).reduce((n, d) => n + d.scores.length, 0);
    return true;
  }
}
