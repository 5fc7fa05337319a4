import 'server-only';
/**
 * Worker heartbeat rows: each worker process touches its row every HEARTBEAT_MS; one not seen for
 * WORKER_LEASE_MS is dead. lib/jobs/heartbeat.ts keeps the timer and releases the dead workers' jobs.
 * A row says how many of the worker's slots still take jobs; a worker whose pool has none left does
 * not beat at all (it cannot work, so it must not look alive and keep its jobs from the others).
 */
import type { Database } from './client';

/** How often a worker says it is alive. */
export const HEARTBEAT_MS = 2_000;
/** A worker silent this long is dead and its jobs are released. */
export const WORKER_LEASE_MS = 10_000;

/** Touches (or creates) a worker's row with the graphile worker ids it runs jobs under and its working slots. */
export async function touchHeartbeat(db: Database, row: { id: string; workerIds: readonly string[]; concurrency: number; slots: number }, now: Date): Promise<void> {
  const workerIds = JSON.stringify(row.workerIds);
  await db.prisma.workerHeartbeat.upsert({
    where: { id: row.id },
    create: { id: row.id, workerIds, concurrency: row.concurrency, slots: row.slots, startedAt: now, lastSeen: now },
    update: { workerIds, slots: row.slots, lastSeen: now },
  });
}

/** Other workers not seen since `cutoff`, with the graphile worker ids whose jobs they held. */
export async function deadWorkers(db: Database, self: string, cutoff: Date): Promise<{ id: string; workerIds: string[] }[]> {
  const rows = await db.prisma.workerHeartbeat.findMany({ where: { lastSeen: { lt: cutoff }, id: { not: self } } });
  return rows.map((r) => ({ id: r.id, workerIds: JSON.parse(r.workerIds) as string[] }));
}

/** Forgets a dead worker, unless it beat again since `cutoff`. */
export async function forgetWorker(db: Database, id: string, cutoff: Date): Promise<void> {
  await db.prisma.workerHeartbeat.deleteMany({ where: { id, lastSeen: { lt: cutoff } } });
}

/** Removes a worker's own row when it stops. */
export async function removeHeartbeat(db: Database, id: string): Promise<void> {
  await db.prisma.workerHeartbeat.deleteMany({ where: { id } });
}

