import 'server-only';
/**
 * Scores online evaluators gave runs (issue 37), and the outbox of finished runs waiting for them
 * (RunWatch, written with each run by runs-write.ts). A score is stored beside the run's reviewers'
 * labels, never among them: labels are evidence (each has its event in the run's chain), scores are
 * measurements, so `audit verify` and the label queue see only reviewers.
 */
import { getDb, type Database } from './client';
import { insertAll } from './bulk-insert';
import { newId } from './ids';

/** A finished run waiting for the watch job, with what its evaluators' filters and the rollup look at. */
export interface WatchedRun {
  id: string;
  tenant: string;
  source: string;
  modelId: string;
  sessionId: string | null;
  agents: string[];
  status: string;
  terminationReason: string;
  startedAt: Date;
  durationMs: number;
  inputTokens: number;
  outputTokens: number;
  unreportedCalls: number;
  /** Null: unknown (no price). */
  costUsd: number | null;
}

/** The oldest `limit` runs waiting for the watch job (a run deleted meanwhile took its row with it). */
export async function pendingWatch(limit: number, db: Database = getDb()): Promise<WatchedRun[]> {
  const waiting = await db.prisma.runWatch.findMany({ orderBy: [{ createdAt: 'asc' }, { runId: 'asc' }], take: limit, select: { runId: true } });
  if (waiting.length === 0) return [];
  const rows = await db.prisma.run.findMany({
    where: { id: { in: waiting.map((w) => w.runId) } },
    select: {
      id: true, tenant: true, source: true, modelId: true, sessionId: true, status: true, terminationReason: true, startedAt: true, durationMs: true,
      inputTokens: true, outputTokens: true, unreportedCalls: true, costUsd: true, costKnown: true, agents: { select: { name: true } },
    },
  });
  const byId = new Map(rows.map((r) => [r.id, r]));
  return waiting.flatMap(({ runId }) => {
    const r = byId.get(runId);
    if (!r) return [];
    return [{
      id: r.id, tenant: r.tenant, source: r.source, modelId: r.modelId, sessionId: r.sessionId, agents: r.agents.map((a) => a.name), status: r.status,
      terminationReason: r.terminationReason, startedAt: r.startedAt, durationMs: r.durationMs, inputTokens: Number(r.inputTokens), outputTokens: Number(r.outputTokens),
      unreportedCalls: r.unreportedCalls, costUsd: r.costKnown ? r.costUsd : null,
    }];
  });
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

/** What completing a run adds inside its transaction besides its scores (the hourly rollup). */
export type WatchTxStep = (txDb: Database) => Promise<void>;

/**
 * Stores a watched run's scores and takes it off the outbox, in one transaction. Another worker
 * that completed the run first wins: nothing is written twice (false). A score already given under
 * the same evaluator version is kept.
 */
export async function completeWatch(run: Pick<WatchedRun, 'id' | 'tenant'>, scores: readonly NewScore[], db: Database = getDb(), also?: WatchTxStep, now: Date = new Date()): Promise<boolean> {
  return db.prisma.$transaction(async (tx) => {
    const txDb: Database = { prisma: tx as unknown as Database['prisma'], provider: db.provider, close: db.close };
    const taken = await tx.runWatch.deleteMany({ where: { runId: run.id } });
    if (taken.count === 0) return false;
    const rows = scores.map((s) => ({ id: newId(now.getTime()), tenant: run.tenant, runId: run.id, source: 'evaluator', ...s, createdAt: now }));
    for (const statement of insertAll(txDb, [{ table: 'RunScore', rows, ignoreConflictOn: ['runId', 'evaluatorId', 'evaluatorVersion'] }])) await statement;
    if (also) await also(txDb);
    return true;
  });
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
  const rows = await db.prisma.runScore.findMany({ where: { tenant }, distinct: ['evaluatorName'], select: { evaluatorName: true }, orderBy: { evaluatorName: 'asc' } });
  return rows.map((r) => r.evaluatorName);
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
