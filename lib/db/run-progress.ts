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
