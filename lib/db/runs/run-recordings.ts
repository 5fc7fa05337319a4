import 'server-only';
/** Whether a stored run can be replayed from recordings: it kept a request digest and response for some model call. */
import { getDb, type Database } from '../core';

export async function hasRecordedExchanges(runId: string, db: Database = getDb()): Promise<boolean> {
  return (await db.prisma.modelCall.count({ where: { runId, requestDigest: { not: null }, responseHash: { not: null } } })) > 0;
}
