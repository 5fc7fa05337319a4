import 'server-only';
/**
 * The sessions of a tenant (an imported trace's `session.id`), newest first: each with its run count and
 * when its first and last runs started. A session exists in a tenant only through its runs there.
 */
import { getDb, type Database } from '../core';

export interface SessionListItem {
  sessionId: string;
  runs: number;
  firstStartedAt: string;
  lastStartedAt: string;
}

/** At most this many sessions are listed (newest last run first). */
export const SESSIONS_LIST_LIMIT = 200;

export async function listSessions(tenant: string, db: Database = getDb()): Promise<SessionListItem[]> {
  const rows = await db.prisma.run.groupBy({
    by: ['sessionId'],
    where: { tenant, sessionId: { not: null } },
    _count: { _all: true },
    _min: { startedAt: true },
    _max: { startedAt: true },
    orderBy: { _max: { startedAt: 'desc' } },
    take: SESSIONS_LIST_LIMIT,
  });
  return rows
    .filter((r): r is typeof r & { sessionId: string } => r.sessionId !== null)
    .map((r) => ({
      sessionId: r.sessionId,
      runs: r._count._all,
      firstStartedAt: (r._min.startedAt ?? new Date(0)).toISOString(),
      lastStartedAt: (r._max.startedAt ?? new Date(0)).toISOString(),
    }));
}
