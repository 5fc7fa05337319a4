import 'server-only';
/**
 * Worker heartbeat rows: each worker process touches its row every HEARTBEAT_MS; one not seen for
 * WORKER_LEASE_MS is dead. lib/jobs/heartbeat.ts keeps the timer and releases the dead workers' jobs.
 */
import type { Database, Prisma } from './client';

/** How often a worker says it is alive. */
export const HEARTBEAT_MS = 2_000;
/** A worker silent this long is dead and its jobs are released. */
export const WORKER_LEASE_MS = 10_000;

/** Touches (or creates) a worker's row with the graphile worker ids it runs jobs under. */
export async function touchHeartbeat(db: Database, row: { id: string; workerIds: readonly string[]; concurrency: number }, now: Date): Promise<void> {
  const workerIds = JSON.stringify(row.workerIds);
  await db.prisma.workerHeartbeat.upsert({
    where: { id: row.id },
    create: { id: row.id, workerIds, concurrency: row.concurrency, startedAt: now, lastSeen: now },
    update: { workerIds, lastSeen: now },
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

/**
 * Whether a resume's owner is gone (lib/governance/governance-store.ts ResumeOwner): its heartbeat row
 * is missing (released and forgotten, or stopped) or silent past the lease, or its graphile-worker job
 * is no longer locked (finished, failed, released). The job engine's own lease, not a clock of its own.
 */
export async function resumeOwnerGone(prisma: Prisma, owner: { worker: string; job: string }, now: Date = new Date(), leaseMs: number = WORKER_LEASE_MS): Promise<boolean> {
  const row = await prisma.workerHeartbeat.findUnique({ where: { id: owner.worker }, select: { lastSeen: true } });
  if (!row || row.lastSeen.getTime() < now.getTime() - leaseMs) return true;
  if (!/^\d+$/.test(owner.job)) return true;
  const held = await prisma.$queryRaw<{ n: number | bigint }[]>`
    SELECT count(*) AS n FROM graphile_worker._private_jobs WHERE id = ${BigInt(owner.job)} AND locked_by IS NOT NULL`;
  return Number(held[0]?.n ?? 0) === 0;
}
