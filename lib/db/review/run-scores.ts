import 'server-only';
/**
 * Scores online evaluators gave runs (issue 37), and the outbox of finished runs waiting for them
 * (RunWatch, written with each run by runs-write.ts). A score is stored beside the run's reviewers'
 * labels, never among them: labels are evidence (each has its event in the run's chain), scores are
 * measurements, so `audit verify` and the label queue see only reviewers.
 */
import { getDb, type Database } from '../core';
import { insertAll } from '../core';
import { Prisma as Sql } from '../generated/sqlite/client';
import { rolledContributions, saveContributions } from './rollup';
import { newId } from '../core';
import { GUARDRAIL_GUARD } from '../runs';

/** A finished run waiting for the watch job, with what its evaluators' filters and the rollup look at. */
export interface WatchedRun {
  id: string;
  tenant: string;
  source: string;
  modelId: string;
  sessionId: string | null;
  agents: string[];
  /** Its tags (sorted). */
  tags: string[];
  status: string;
  terminationReason: string;
  startedAt: Date;
  durationMs: number;
  inputTokens: number;
  outputTokens: number;
  unreportedCalls: number;
  /** Null: unknown (no price). */
  costUsd: number | null;
  /** The run's own guardrails that fired (refused, violated, found, or whose judge failed). */
  guardrailFindings: number;
}

/** Guardrail event actions that mean a guardrail fired (lib/harness/guardrails/summary.ts). */
const FIRED_GUARDRAIL_ACTIONS = ['refused', 'violated', 'finding', 'judge_failed'];

/** A drain's hold on runs: its token (RunWatch.claimedBy) and how long it lasts (lib/watch/claim-settings.ts). */
export interface WatchClaim {
  token: string;
  ms: number;
}

/**
 * Takes the oldest `limit` runs waiting for the watch job that no other drain holds, for `claim.ms`
 * under `claim.token` (PostgreSQL: rows another drain is taking at this moment are skipped, not
 * waited for), and returns them with what their evaluators and the rollup need. Several drains at
 * once take different runs; a hold past its time may be taken over. A run deleted meanwhile took its
 * row with it. Only the holder completes (completeWatch) or releases (releaseWatch) what it took.
 */
export async function claimWatch(limit: number, claim: WatchClaim, db: Database = getDb(), now: Date = new Date()): Promise<WatchedRun[]> {
  const until = new Date(now.getTime() + claim.ms);
  const lock = Sql.raw(db.provider === 'postgres' ? ' FOR UPDATE SKIP LOCKED' : '');
  const waiting = await db.prisma.$queryRaw<Array<{ runId: string }>>`UPDATE "RunWatch" SET "claimedUntil" = ${until}, "claimedBy" = ${claim.token}
    WHERE "runId" IN (SELECT "runId" FROM "RunWatch" WHERE "claimedUntil" IS NULL OR "claimedUntil" < ${now} ORDER BY "createdAt", "runId" LIMIT ${limit}${lock})
    RETURNING "runId"`;
  if (waiting.length === 0) return [];
  const rows = await db.prisma.run.findMany({
    where: { id: { in: waiting.map((w) => w.runId) } },
    select: {
      id: true, tenant: true, source: true, modelId: true, sessionId: true, status: true, terminationReason: true, startedAt: true, durationMs: true,
      inputTokens: true, outputTokens: true, unreportedCalls: true, costUsd: true, costKnown: true, agents: { select: { name: true } }, tags: { select: { tag: true }, orderBy: { tag: 'asc' } },
      _count: { select: { guards: { where: { guard: GUARDRAIL_GUARD, reason: { in: FIRED_GUARDRAIL_ACTIONS } } } } },
    },
  });
  const byId = new Map(rows.map((r) => [r.id, r]));
  return waiting.flatMap(({ runId }) => {
    const r = byId.get(runId);
    if (!r) return [];
    return [{
      id: r.id, tenant: r.tenant, source: r.source, modelId: r.modelId, sessionId: r.sessionId, agents: r.agents.map((a) => a.name), tags: r.tags.map((t) => t.tag), status: r.status,
      terminationReason: r.terminationReason, startedAt: r.startedAt, durationMs: r.durationMs, inputTokens: Number(r.inputTokens), outputTokens: Number(r.outputTokens),
      unreportedCalls: r.unreportedCalls, costUsd: r.costKnown ? r.costUsd : null, guardrailFindings: r._count.guards,
    }];
  });
}

/**
 * Gives back what the drain holding `token` took and did not complete (it failed, or was stopped), so
 * the next drain takes those runs at once rather than after the hold's time. Returns how many.
 */
export async function releaseWatch(token: string, db: Database = getDb()): Promise<number> {
  return (await db.prisma.runWatch.updateMany({ where: { claimedBy: token }, data: { claimedUntil: null, claimedBy: null } })).count;
}

/** How many runs wait for the watch job (the bench waits for 0). */
export async function pendingWatchCount(db: Database = getDb()): Promise<number> {
  return db.prisma.runWatch.count();
}

export interface NewScore {
  evaluatorId: string;
  evaluatorName: string;
  evaluatorVersion: number;
  kind: string;
  score: number | null;
  value: number | null;
  detail: string;
  spendUsd: number | null;
}

/** One scored run to complete, with what it adds to the hourly rollup (JSON, lib/watch/contribution.ts). */
export interface WatchCompletion {
  run: Pick<WatchedRun, 'id' | 'tenant'>;
  scores: readonly NewScore[];
  contribution: string | null;
}

/**
 * Stores a batch of watched runs' scores and takes them off the outbox, in one transaction: only the
 * runs this transaction took off (DELETE … RETURNING of the rows `token` still holds) get their scores
 * and their part of the rollup, so a run another drain took over or completed first is written once,
 * and a run stored again meanwhile (its row written anew, unclaimed) is left for the next drain. `rollup` turns the taken runs' new
 * contributions and the ones they added before (a rebuilt run) into the rows to add. Returns the ids taken.
 */
export async function completeWatch(
  items: readonly WatchCompletion[],
  token: string,
  db: Database = getDb(),
  rollup?: (txDb: Database, taken: readonly WatchCompletion[], before: Map<string, string>) => Promise<void>,
  now: Date = new Date(),
): Promise<string[]> {
  if (items.length === 0) return [];
  return db.prisma.$transaction(
    async (tx) => {
      const txDb: Database = { prisma: tx as unknown as Database['prisma'], provider: db.provider, close: db.close };
      const ids = items.map((i) => i.run.id);
      const rows = await tx.$queryRaw<Array<{ runId: string }>>`DELETE FROM "RunWatch" WHERE "runId" IN (${Sql.join(ids)}) AND "claimedBy" = ${token} RETURNING "runId"`;
      const takenIds = new Set(rows.map((r) => r.runId));
      const taken = items.filter((i) => takenIds.has(i.run.id));
      if (taken.length === 0) return [];
      // Locked before the scores go in, as a backfill storing scores of the same runs does (evaluator-backfills.ts).
      const before = rollup ? await rolledContributions(txDb, taken.map((i) => i.run.id), true) : new Map<string, string>();
      const scoreRows = taken.flatMap((i) => i.scores.map((s) => ({ id: newId(now.getTime()), tenant: i.run.tenant, runId: i.run.id, source: 'evaluator', ...s, createdAt: now })));
      for (const statement of insertAll(txDb, [{ table: 'RunScore', rows: scoreRows, ignoreConflictOn: ['runId', 'evaluatorId', 'evaluatorVersion'] }])) await statement;
      if (rollup) {
        await rollup(txDb, taken, before);
        await saveContributions(txDb, taken.flatMap((i) => (i.contribution === null ? [] : [{ runId: i.run.id, tenant: i.run.tenant, contribution: i.contribution }])));
      }
      return taken.map((i) => i.run.id);
    },
    { timeout: 60_000, maxWait: 60_000 },
  );
}

/** A stored score, as pages show it. */
export interface RunScoreDto {
  id: string;
  runId: string;
  source: 'evaluator';
  evaluatorName: string;
  evaluatorVersion: number;
  kind: string;
  score: number | null;
  value: number | null;
  detail: string;
  createdAt: string;
}

type ScoreRow = { id: string; runId: string; evaluatorName: string; evaluatorVersion: number; kind: string; score: number | null; value: number | null; detail: string; createdAt: Date };
const toDto = (r: ScoreRow): RunScoreDto => ({ id: r.id, runId: r.runId, source: 'evaluator', evaluatorName: r.evaluatorName, evaluatorVersion: r.evaluatorVersion, kind: r.kind, score: r.score, value: r.value, detail: r.detail, createdAt: r.createdAt.toISOString() });

/** Every score of a run of `tenant`, newest version of each evaluator last; another tenant's run has none. */
export async function scoresOfRun(tenant: string, runId: string, db: Database = getDb()): Promise<RunScoreDto[]> {
  const rows = await db.prisma.runScore.findMany({ where: { tenant, runId }, orderBy: [{ evaluatorName: 'asc' }, { evaluatorVersion: 'asc' }] });
  return rows.map(toDto);
}

/** The newest score of each evaluator per run, for lists: run id → evaluator name → score. */
export async function scoreSummaries(tenant: string, runIds: readonly string[], db: Database = getDb()): Promise<Map<string, Map<string, RunScoreDto>>> {
  const out = new Map<string, Map<string, RunScoreDto>>();
  if (runIds.length === 0) return out;
  const rows = await db.prisma.runScore.findMany({ where: { tenant, runId: { in: [...runIds] } }, orderBy: [{ evaluatorVersion: 'asc' }] });
  for (const r of rows) {
    const mine = out.get(r.runId) ?? new Map<string, RunScoreDto>();
    mine.set(r.evaluatorName, toDto(r));
    out.set(r.runId, mine);
  }
  return out;
}

/** The names of the evaluators that scored the tenant's runs (the runs list's score filter). */
export async function scoredEvaluatorNames(tenant: string, db: Database = getDb()): Promise<string[]> {
  // One probe of the (tenant, evaluatorName, score) index per distinct name, each the next after the
  // last: Prisma's `distinct` fetched every score of the tenant (one per run and evaluator) to drop duplicates.
  const rows = await db.prisma.$queryRaw<Array<{ name: string }>>`WITH RECURSIVE "names"("name") AS (
      SELECT (SELECT "evaluatorName" FROM "RunScore" WHERE "tenant" = ${tenant} ORDER BY "evaluatorName" LIMIT 1)
      UNION ALL
      SELECT (SELECT s."evaluatorName" FROM "RunScore" s WHERE s."tenant" = ${tenant} AND s."evaluatorName" > n."name" ORDER BY s."evaluatorName" LIMIT 1)
      FROM "names" n WHERE n."name" IS NOT NULL
    ) SELECT "name" FROM "names" WHERE "name" IS NOT NULL`;
  return rows.map((r) => r.name);
}

/**
 * The known USD evaluator `evaluatorId` of `tenant` spent since `since` (a UTC day's start): a judge's
 * daily cap is held against it. A live judge whose model has no price spends unknown USD (null), which
 * no cap in USD can hold: the settings page says so.
 */
export async function evaluatorSpendSince(tenant: string, evaluatorId: string, since: Date, db: Database = getDb()): Promise<number> {
  const sum = await db.prisma.runScore.aggregate({ where: { tenant, evaluatorId, createdAt: { gte: since } }, _sum: { spendUsd: true } });
  return sum._sum.spendUsd ?? 0;
}

/** A judge score that disagrees with a reviewer's verdict on the same run (the Judge page). */
export interface JudgeDisagreement {
  runId: string;
  evaluatorName: string;
  evaluatorVersion: number;
  score: number;
  verdict: 'pass' | 'fail';
  reviewer: string;
  labelledAt: string;
}

/** Judge scores at or above this pass a run (the fake judge's `passed` needs every fact; a share of claims is read this way). */
export const JUDGE_PASS_SCORE = 0.5;

/**
 * The tenant's runs whose online judge's newest score disagrees with the reviewer's current run-level
 * verdict (pass with a score under JUDGE_PASS_SCORE, fail with one at or above it), newest first.
 * Labels are read as they are; scores never change them.
 */
export async function judgeDisagreements(tenant: string, limit = 50, db: Database = getDb()): Promise<JudgeDisagreement[]> {
  const scores = await db.prisma.runScore.findMany({
    where: { tenant, kind: 'judge', score: { not: null }, run: { labels: { some: { step: null, verdict: { in: ['pass', 'fail'] } } } } },
    orderBy: [{ createdAt: 'desc' }, { evaluatorVersion: 'desc' }],
    take: 1000,
  });
  if (scores.length === 0) return [];
  const runIds = [...new Set(scores.map((s) => s.runId))];
  const labels = await db.prisma.runLabel.findMany({ where: { tenant, runId: { in: runIds }, step: null }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
  // The current run-level label: the newest one (a newer label supersedes, lib/eval currentLabels).
  const current = new Map<string, (typeof labels)[number]>();
  for (const l of labels) current.set(l.runId, l);
  const seen = new Set<string>();
  const out: JudgeDisagreement[] = [];
  for (const s of scores) {
    const key = `${s.runId}\u0000${s.evaluatorName}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const label = current.get(s.runId);
    if (!label || (label.verdict !== 'pass' && label.verdict !== 'fail')) continue;
    const judgePasses = s.score! >= JUDGE_PASS_SCORE;
    if (judgePasses === (label.verdict === 'pass')) continue;
    out.push({ runId: s.runId, evaluatorName: s.evaluatorName, evaluatorVersion: s.evaluatorVersion, score: s.score!, verdict: label.verdict, reviewer: label.createdByName, labelledAt: label.createdAt.toISOString() });
    if (out.length >= limit) break;
  }
  return out;
}
