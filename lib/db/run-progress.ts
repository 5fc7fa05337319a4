import 'server-only';
/** How far a stored run has got: what a page following a live run polls (one small row read). */
import { getDb, type Database } from './client';
import { NotFoundError } from './errors';

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
