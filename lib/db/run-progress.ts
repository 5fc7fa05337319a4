import 'server-only';
/** How far a stored run has got: what a page following a live run polls (one small row read). */
import { getDb, type Database } from './client';
import { NotFoundError } from './errors';
import type { Prisma as P } from './generated/sqlite/client';

export interface RunProgressDto {
  /** `running` while a live run is being stored step by step; `finished` or `paused` after. */
  status: string;
  steps: number;
  modelCallCount: number;
  terminationReason: string;
}

export async function getRunProgressOrThrow(id: string, db: Database = getDb()): Promise<RunProgressDto> {
  const row = await db.prisma.run.findUnique({ where: { id }, select: { status: true, steps: true, modelCallCount: true, terminationReason: true } });
  if (!row) throw new NotFoundError('run', id);
  return row;
}

/** What an interrupted run says instead of an answer. */
export const INTERRUPTED_ANSWER = 'The server stopped while this run was running; it keeps the steps stored before that.';

/**
 * Marks runs still `running` whose last stored step is older than `staleBefore` as ended (a server
 * start: their process is gone, so no step will come). A run another live process is still storing
 * rewrites its whole record at its next step, so a too-early mark undoes itself.
 */
export async function failInterruptedRuns(staleBefore: Date, db: Database = getDb()): Promise<number> {
  return endRunsUnfinished({ status: { in: ['running', 'stopping'] }, createdAt: { lt: staleBefore } }, INTERRUPTED_ANSWER, db);
}

/**
 * Ends the runs `where` selects that will get no more steps (interrupted, stopped while queued, refused
 * or given up on by a worker): finished as MODEL_ERROR, with `answer` saying why. Returns how many.
 */
export async function endRunsUnfinished(where: P.RunWhereInput, answer: string, db: Database = getDb()): Promise<number> {
  const { count } = await db.prisma.run.updateMany({ where, data: { status: 'finished', terminationReason: 'MODEL_ERROR', finalAnswer: answer } });
  return count;
}

/**
 * Claims a queued run for a worker by compare-and-set (queued → running). `taken-over`: it was
 * already running, so the worker that took it died and this one runs it again from the start;
 * `not-queued`: stopped while queued, deleted or finished, so nothing runs.
 */
export async function claimQueuedRun(id: string, db: Database = getDb()): Promise<'claimed' | 'taken-over' | 'not-queued'> {
  const claimed = await db.prisma.run.updateMany({ where: { id, status: 'queued' }, data: { status: 'running' } });
  if (claimed.count > 0) return 'claimed';
  const row = await db.prisma.run.findUnique({ where: { id }, select: { status: true } });
  return row?.status === 'running' ? 'taken-over' : 'not-queued';
}

/** A run's status, or null when it does not exist (a live run polls it for a stop request). */
export async function runStatus(id: string, db: Database = getDb()): Promise<string | null> {
  const row = await db.prisma.run.findUnique({ where: { id }, select: { status: true } });
  return row?.status ?? null;
}

/** Marks a running run `stopping` (its process polls the row); true when it was running. */
export async function markRunStopping(id: string, db: Database = getDb()): Promise<boolean> {
  const { count } = await db.prisma.run.updateMany({ where: { id, status: 'running' }, data: { status: 'stopping' } });
  return count > 0;
}
