/**
 * A backfill step (issue 37): an evaluator's current version run over the runs a tenant stored in a
 * window, a chunk of BACKFILL_CHUNK runs at a time in (startedAt, id) order, for at most
 * BACKFILL_STEP_CHUNKS chunks; the job then enqueues the next step. Each chunk is stored whole with
 * the backfill's cursor (lib/db/review/evaluator-backfills.ts), so a step that fails or dies leaves nothing
 * half-done and the next one goes on from the cursor. A run this version scored already is skipped
 * before anything is measured or a judge is asked; a run never rolled up (stored before the watch job
 * existed) is handed to the watch job, which scores it with every evaluator. The evaluator changed
 * meanwhile (a new version, disabled, removed) ends the backfill saying so.
 */
import { randomUUID } from 'node:crypto';
import type { Judge } from '../eval';
import { getDb, type Database } from '../db/core';
import { listEvaluators } from '../db/review';
import {
  backfillCandidates,
  claimBackfill,
  countBackfillRuns,
  endBackfill,
  releaseBackfill,
  storeBackfillChunk,
  type BackfillChunk,
} from '../db/review';
import { applyRollup, saveContributions } from '../db/review';
import { getRunsForEvaluators } from '../db/runs';
import type { NewScore } from '../db/review';
import { watchClaimMs } from './claim-settings';
import { addScores, parseContribution } from './contribution';
import { judgeAccess } from './judge-access';
import { scoreRun } from './score-run';

/** Runs a chunk looks at (one transaction stores its scores and moves the cursor). */
export const BACKFILL_CHUNK = 100;
/** Chunks a step does before the next step (a job) takes over, so a job stays short. */
export const BACKFILL_STEP_CHUNKS = 20;

export interface BackfillStepOptions {
  db?: Database;
  signal?: AbortSignal;
  now?: () => Date;
  claimMs?: number;
  /** Chunks this step does at most (default BACKFILL_STEP_CHUNKS). */
  chunks?: number;
  liveJudge?: (spec: string) => Promise<Judge>;
}

/** `more`: it goes on (enqueue the next step); `ended`: done, or ended saying why; `busy`: another step holds it, or it is not running. */
export type BackfillStepOutcome = 'more' | 'ended' | 'busy';

/** Adds the stored scores to what each run added to the rollup, inside the chunk's transaction. */
async function rollScores(txDb: Database, stored: ReadonlyArray<NewScore & { runId: string }>, before: Map<string, string>): Promise<void> {
  const byRun = new Map<string, Array<[string, number]>>();
  for (const s of stored) if (s.score !== null) byRun.set(s.runId, [...(byRun.get(s.runId) ?? []), [s.evaluatorName, s.score]]);
  const deltas = { hours: [], latency: [], scores: [] as Parameters<typeof applyRollup>[1]['scores'] };
  const saved: Array<{ runId: string; tenant: string; contribution: string }> = [];
  for (const [runId, scores] of byRun) {
    const old = before.get(runId);
    const c = old === undefined ? null : parseContribution(old);
    if (!c) continue;
    const added = addScores(c, scores);
    deltas.scores.push(...added.deltas.scores);
    saved.push({ runId, tenant: c.tenant, contribution: JSON.stringify(added.contribution) });
  }
  await applyRollup(txDb, deltas);
  await saveContributions(txDb, saved);
}

/** One step of backfill `id`. */
export async function runBackfillStep(id: string, options: BackfillStepOptions = {}): Promise<BackfillStepOutcome> {
  const db = options.db ?? getDb();
  const now = options.now ?? (() => new Date());
  const token = randomUUID();
  const held = await claimBackfill(id, { token, ms: options.claimMs ?? watchClaimMs() }, db, now());
  if (!held) return 'busy';
  try {
    const evaluator = (await listEvaluators(held.tenant, db)).find((e) => e.id === held.evaluatorId);
    const changed = !evaluator ? 'the evaluator was removed' : evaluator.version !== held.evaluatorVersion ? `the evaluator has a newer version (v${evaluator.version}): backfill that one` : !evaluator.enabled ? 'the evaluator was disabled' : null;
    if (changed || !evaluator) {
      await endBackfill(id, token, 'failed', changed, db, now());
      return 'ended';
    }
    if (held.total === null) await countBackfillRuns(held, evaluator, token, db);
    const access = judgeAccess({ db, now, signal: options.signal, liveJudge: options.liveJudge });
    let cursor = held.cursor;
    for (let n = 0; n < (options.chunks ?? BACKFILL_STEP_CHUNKS); n++) {
      const runs = await backfillCandidates({ ...held, cursor }, evaluator, BACKFILL_CHUNK, db);
      const last = runs.at(-1);
      const chunk: BackfillChunk = { scores: [], queued: [], skipped: 0, scanned: runs.length, last: last ? { at: last.startedAt, id: last.id } : null };
      const scores: Array<NewScore & { runId: string }> = [];
      const read = await getRunsForEvaluators(runs.filter((run) => !run.scored && run.rolled).map((run) => run.id), db);
      for (const run of runs) {
        options.signal?.throwIfAborted();
        if (run.scored) chunk.skipped += 1;
        else if (!run.rolled) (chunk.queued as string[]).push(run.id);
        else {
          const stored = read.get(run.id);
          const given = stored ? await scoreRun(run.id, stored, [evaluator], access) : [];
          if (given.length === 0) chunk.skipped += 1; // deleted meanwhile, or a judge's sample leaves it out
          scores.push(...given.map((s) => ({ ...s, runId: run.id })));
        }
      }
      if (!(await storeBackfillChunk(held, token, { ...chunk, scores }, rollScores, db, now()))) return 'ended'; // cancelled, or another step took over
      if (!chunk.last) return 'ended';
      cursor = chunk.last;
    }
    await releaseBackfill(id, token, db);
    return 'more';
  } catch (err) {
    await releaseBackfill(id, token, db).catch(() => undefined);
    throw err;
  }
}
