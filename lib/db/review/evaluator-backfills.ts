import 'server-only';
/**
 * Backfills of online evaluators (issue 37): an evaluator's current version run over the runs a tenant
 * already stored in a window, a chunk at a time by `backfill` jobs (lib/watch/backfill.ts). A step
 * holds the backfill under a token for a while (as a watch drain holds runs), and a chunk's scores,
 * their part of the hourly rollup and the backfill's cursor and counts are stored in one transaction
 * that first checks the hold: a step that lost it, or a backfill cancelled meanwhile, stores nothing.
 * Another tenant's backfill is not found.
 */
import type { Prisma as P } from '../generated/sqlite/client';
import { Prisma as Sql } from '../generated/sqlite/client';
import { getDb, type Database } from '../core';
import { InvalidInputError, NotFoundError } from '../core';
import { insertAll } from '../core';
import { newId } from '../core';
import { rolledContributions } from './rollup';
import { runWhere } from '../runs';
import type { EvaluatorDto } from './evaluators';
import type { NewScore, WatchClaim } from './run-scores';

export const BACKFILL_STATUSES = ['running', 'done', 'cancelled', 'failed'] as const;
export type BackfillStatus = (typeof BACKFILL_STATUSES)[number];

/** The widest window a backfill may cover (days). */
export const MAX_BACKFILL_DAYS = 366;

export interface BackfillDto {
  id: string;
  evaluatorId: string;
  evaluatorName: string;
  evaluatorVersion: number;
  from: string;
  to: string;
  status: BackfillStatus;
  /** Runs in the window its filter takes (null: not counted yet). */
  total: number | null;
  scanned: number;
  scored: number;
  skipped: number;
  queued: number;
  error: string | null;
  createdAt: string;
  finishedAt: string | null;
}

type Row = Awaited<ReturnType<Database['prisma']['evaluatorBackfill']['findFirstOrThrow']>>;

const toDto = (r: Row): BackfillDto => ({
  id: r.id,
  evaluatorId: r.evaluatorId,
  evaluatorName: r.evaluatorName,
  evaluatorVersion: r.evaluatorVersion,
  from: r.from.toISOString(),
  to: r.to.toISOString(),
  status: (BACKFILL_STATUSES as readonly string[]).includes(r.status) ? (r.status as BackfillStatus) : 'failed',
  total: r.total,
  scanned: r.scanned,
  scored: r.scored,
  skipped: r.skipped,
  queued: r.queued,
  error: r.error,
  createdAt: r.createdAt.toISOString(),
  finishedAt: r.finishedAt?.toISOString() ?? null,
});

/**
 * Starts a backfill of the tenant's evaluator `evaluatorId` (its current version) over the runs that
 * started in [from, to). Another tenant's evaluator is not found (NotFoundError); refused, naming the
 * field: a disabled one, a window that is empty or wider than MAX_BACKFILL_DAYS, or a backfill of it
 * still running.
 */
export async function startBackfill(tenant: string, evaluatorId: string, window: { from: Date; to: Date }, by: string | null, db: Database = getDb(), now: Date = new Date()): Promise<BackfillDto> {
  if (!(window.from.getTime() < window.to.getTime())) throw new InvalidInputError('to', 'the window must end after it starts');
  if (window.to.getTime() - window.from.getTime() > MAX_BACKFILL_DAYS * 86_400_000) throw new InvalidInputError('from', `a backfill covers at most ${MAX_BACKFILL_DAYS} days`);
  return db.prisma.$transaction(async (tx) => {
    const evaluator = await tx.evaluator.findFirst({ where: { tenant, id: evaluatorId } });
    if (!evaluator) throw new NotFoundError('evaluator', evaluatorId);
    if (!evaluator.enabled) throw new InvalidInputError('evaluatorId', `${evaluator.name} is disabled: enable it first`);
    if (await tx.evaluatorBackfill.count({ where: { tenant, evaluatorId, status: 'running' } })) {
      throw new InvalidInputError('evaluatorId', `a backfill of ${evaluator.name} is running: cancel it or wait for it`);
    }
    const row = await tx.evaluatorBackfill.create({
      data: {
        id: newId(now.getTime()), tenant, evaluatorId, evaluatorName: evaluator.name, evaluatorVersion: evaluator.version, from: window.from, to: window.to,
        status: 'running', createdBy: by, createdAt: now, updatedAt: now,
      },
    });
    return toDto(row);
  });
}

/** The tenant's backfills, newest first. */
export async function listBackfills(tenant: string, limit = 20, db: Database = getDb()): Promise<BackfillDto[]> {
  return (await db.prisma.evaluatorBackfill.findMany({ where: { tenant }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: limit })).map(toDto);
}

/** Cancels the tenant's running backfill `id` (the step working on it stores nothing more). False: no such running backfill in this tenant. */
export async function cancelBackfill(tenant: string, id: string, db: Database = getDb(), now: Date = new Date()): Promise<boolean> {
  const { count } = await db.prisma.evaluatorBackfill.updateMany({ where: { tenant, id, status: 'running' }, data: { status: 'cancelled', finishedAt: now, updatedAt: now, claimedBy: null, claimedUntil: null } });
  return count > 0;
}

/** Running backfills no step holds now (the watch job nudges them: a step lost with a restart). */
export async function idleBackfillIds(db: Database = getDb(), now: Date = new Date()): Promise<string[]> {
  const rows = await db.prisma.evaluatorBackfill.findMany({ where: { status: 'running', OR: [{ claimedUntil: null }, { claimedUntil: { lt: now } }] }, select: { id: true }, take: 100 });
  return rows.map((r) => r.id);
}

/** A backfill as its step sees it. */
export interface HeldBackfill {
  id: string;
  tenant: string;
  evaluatorId: string;
  evaluatorVersion: number;
  from: Date;
  to: Date;
  total: number | null;
  cursor: { at: Date; id: string } | null;
}

/** Holds running backfill `id` for `claim.ms` under `claim.token`; null when it is not running or another step holds it. */
export async function claimBackfill(id: string, claim: WatchClaim, db: Database = getDb(), now: Date = new Date()): Promise<HeldBackfill | null> {
  const { count } = await db.prisma.evaluatorBackfill.updateMany({
    where: { id, status: 'running', OR: [{ claimedUntil: null }, { claimedUntil: { lt: now } }] },
    data: { claimedBy: claim.token, claimedUntil: new Date(now.getTime() + claim.ms) },
  });
  if (count === 0) return null;
  const r = await db.prisma.evaluatorBackfill.findUniqueOrThrow({ where: { id } });
  return { id: r.id, tenant: r.tenant, evaluatorId: r.evaluatorId, evaluatorVersion: r.evaluatorVersion, from: r.from, to: r.to, total: r.total, cursor: r.cursorAt && r.cursorId ? { at: r.cursorAt, id: r.cursorId } : null };
}

/** Gives the hold back (the next step may take it at once). */
export async function releaseBackfill(id: string, token: string, db: Database = getDb()): Promise<void> {
  await db.prisma.evaluatorBackfill.updateMany({ where: { id, claimedBy: token }, data: { claimedBy: null, claimedUntil: null } });
}

/** Ends a held backfill as `status` (a failure says why); false when the hold was lost or it was cancelled. */
export async function endBackfill(id: string, token: string, status: Exclude<BackfillStatus, 'running'>, error: string | null, db: Database = getDb(), now: Date = new Date()): Promise<boolean> {
  const { count } = await db.prisma.evaluatorBackfill.updateMany({
    where: { id, claimedBy: token, status: 'running' },
    data: { status, error: error?.slice(0, 500) ?? null, finishedAt: now, updatedAt: now, claimedBy: null, claimedUntil: null },
  });
  return count > 0;
}

/** The runs a backfill takes: finished, outside suites, started in its window, taken by the evaluator's filter. */
function backfillWhere(b: HeldBackfill, e: EvaluatorDto): P.RunWhereInput {
  const f = e.filter;
  return {
    AND: [
      runWhere({ tenant: b.tenant, status: 'finished', source: f.source, modelId: f.modelId, agent: f.agent, sessionId: f.sessionId, tag: f.tag, startedFrom: b.from, startedBefore: b.to }),
      { suiteRunId: null },
    ],
  };
}

/** How many runs the backfill takes (its first step stores it as the total). */
export async function countBackfillRuns(b: HeldBackfill, e: EvaluatorDto, token: string, db: Database = getDb()): Promise<number> {
  const total = await db.prisma.run.count({ where: backfillWhere(b, e) });
  await db.prisma.evaluatorBackfill.updateMany({ where: { id: b.id, claimedBy: token }, data: { total } });
  return total;
}

/** One run of a chunk: whether this version scored it already, and whether it was ever rolled up. */
export interface BackfillCandidate {
  id: string;
  startedAt: Date;
  scored: boolean;
  rolled: boolean;
}

/** The next `limit` runs after the backfill's cursor, in (startedAt, id) order. */
export async function backfillCandidates(b: HeldBackfill, e: EvaluatorDto, limit: number, db: Database = getDb()): Promise<BackfillCandidate[]> {
  const after: P.RunWhereInput[] = b.cursor ? [{ OR: [{ startedAt: { gt: b.cursor.at } }, { startedAt: b.cursor.at, id: { gt: b.cursor.id } }] }] : [];
  const runs = await db.prisma.run.findMany({ where: { AND: [backfillWhere(b, e), ...after] }, orderBy: [{ startedAt: 'asc' }, { id: 'asc' }], take: limit, select: { id: true, startedAt: true } });
  if (runs.length === 0) return [];
  const ids = runs.map((r) => r.id);
  const [scored, rolled] = await Promise.all([
    db.prisma.runScore.findMany({ where: { runId: { in: ids }, evaluatorId: b.evaluatorId, evaluatorVersion: b.evaluatorVersion }, select: { runId: true } }),
    db.prisma.runRolled.findMany({ where: { runId: { in: ids } }, select: { runId: true } }),
  ]);
  const isScored = new Set(scored.map((s) => s.runId));
  const isRolled = new Set(rolled.map((r) => r.runId));
  return runs.map((r) => ({ id: r.id, startedAt: r.startedAt, scored: isScored.has(r.id), rolled: isRolled.has(r.id) }));
}

/** What one chunk stores. */
export interface BackfillChunk {
  /** New scores, each of a run that was rolled up before. */
  scores: ReadonlyArray<NewScore & { runId: string }>;
  /** Runs never rolled up: handed to the watch job. */
  queued: readonly string[];
  /** Runs this version had scored already, or a judge's sample left out. */
  skipped: number;
  /** The last run of the chunk (the next starts after it); null: none was left, the backfill is done. */
  last: { at: Date; id: string } | null;
  scanned: number;
}

/**
 * Stores a chunk if `token` still holds the backfill and it still runs (false otherwise, nothing
 * stored): its scores (a score this version already gave a run stays, and the rollup is told only of
 * the scores stored now), their part of the rollup (`rollup` adds them to what each run added before,
 * locked first so a watch drain completing the same run waits), the runs handed to the watch, and the
 * cursor and counts; a chunk with no last run ends it `done`.
 */
export async function storeBackfillChunk(
  b: HeldBackfill,
  token: string,
  chunk: BackfillChunk,
  rollup: (txDb: Database, stored: ReadonlyArray<NewScore & { runId: string }>, before: Map<string, string>) => Promise<void>,
  db: Database = getDb(),
  now: Date = new Date(),
): Promise<boolean> {
  return db.prisma.$transaction(
    async (tx) => {
      const txDb: Database = { prisma: tx as unknown as Database['prisma'], provider: db.provider, close: db.close };
      const lock = Sql.raw(db.provider === 'postgres' ? ' FOR UPDATE' : '');
      const held = await tx.$queryRaw<Array<{ id: string }>>`SELECT "id" FROM "EvaluatorBackfill" WHERE "id" = ${b.id} AND "claimedBy" = ${token} AND "status" = 'running'${lock}`;
      if (held.length === 0) return false;
      // Runs never rolled up go to the watch first: like a drain, this takes outbox rows before the rollup's.
      for (const statement of insertAll(txDb, [{ table: 'RunWatch', rows: chunk.queued.map((runId) => ({ runId, tenant: b.tenant, createdAt: now })), ignoreConflictOn: 'runId' }])) await statement;
      let stored: Array<NewScore & { runId: string }> = [];
      if (chunk.scores.length > 0) {
        // Locked in one order before the scores go in: a drain completing one of these runs (which locks them first too) waits, or is waited for.
        const before = await rolledContributions(txDb, chunk.scores.map((s) => s.runId), true);
        const rows = chunk.scores.map((s) => ({ id: newId(now.getTime()), tenant: b.tenant, source: 'evaluator', ...s, createdAt: now }));
        for (const statement of insertAll(txDb, [{ table: 'RunScore', rows, ignoreConflictOn: ['runId', 'evaluatorId', 'evaluatorVersion'] }])) await statement;
        // A score this version gave the run meanwhile stays; only the rows stored now are counted.
        const mine = new Set((await tx.runScore.findMany({ where: { id: { in: rows.map((r) => r.id) } }, select: { runId: true } })).map((r) => r.runId));
        stored = chunk.scores.filter((s) => mine.has(s.runId));
        if (stored.length > 0) await rollup(txDb, stored, before);
      }
      await tx.evaluatorBackfill.update({
        where: { id: b.id },
        data: {
          scanned: { increment: chunk.scanned },
          scored: { increment: stored.length },
          skipped: { increment: chunk.skipped + (chunk.scores.length - stored.length) },
          queued: { increment: chunk.queued.length },
          updatedAt: now,
          ...(chunk.last ? { cursorAt: chunk.last.at, cursorId: chunk.last.id } : { status: 'done', finishedAt: now, claimedBy: null, claimedUntil: null }),
        },
      });
      return true;
    },
    { timeout: 60_000, maxWait: 60_000 },
  );
}
