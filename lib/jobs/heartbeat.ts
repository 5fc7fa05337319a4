/**
 * Worker heartbeats and leases (instead of a boot-time grace window): each worker touches its row
 * every HEARTBEAT_MS; a worker not seen for WORKER_LEASE_MS is dead, and whichever live worker
 * notices first releases the jobs it held (graphile-worker forceUnlockWorkers), so another worker
 * takes them at once. A job released from a worker that was only slow or paused may still be running
 * there: its stores are fenced by the job's lease (lib/db/job-lease.ts), so it stores nothing once the
 * job is another worker's.
 *
 * The lease, as other code may rely on it: a job is held by the worker whose pool id its row's
 * `locked_by` names (JobContext.lease); the worker keeps it while its heartbeat row is younger than
 * WORKER_LEASE_MS. A worker beats only while its pool has working slots (`slots() > 0`): one whose
 * pool died (graphile-worker shuts a pool down when it cannot complete or fail a job) stops beating
 * until its pool is restored, so if it stays that way the others release its jobs.
 */
import type { Database } from '../db/client';
import { deadWorkers, forgetWorker, HEARTBEAT_MS, removeHeartbeat, touchHeartbeat, WORKER_LEASE_MS } from '../db/worker-heartbeats';

export interface HeartbeatOptions {
  db: Database;
  /** This process's heartbeat id (host:pid:random). */
  id: string;
  concurrency: number;
  /** Slots of the worker pool still taking jobs: with none, the worker does not beat. */
  slots: () => number;
  workerIds: () => readonly string[];
  /** Releases the jobs of dead workers' graphile ids. */
  release: (workerIds: string[]) => Promise<void>;
  intervalMs?: number;
  leaseMs?: number;
}

/**
 * One beat: touch our row (with the working slots), then release and forget workers past their
 * lease. A worker with no working slot skips the beat altogether. Returns the dead heartbeat ids handled.
 */
export async function beat(o: HeartbeatOptions, now: Date = new Date()): Promise<string[]> {
  const slots = o.slots();
  if (slots <= 0) return [];
  await touchHeartbeat(o.db, { id: o.id, workerIds: o.workerIds(), concurrency: o.concurrency, slots }, now);
  const cutoff = new Date(now.getTime() - (o.leaseMs ?? WORKER_LEASE_MS));
  const handled: string[] = [];
  for (const d of await deadWorkers(o.db, o.id, cutoff)) {
    await o.release(d.workerIds);
    await forgetWorker(o.db, d.id, cutoff);
    handled.push(d.id);
  }
  return handled;
}

/** Beats now and every interval until stopped; a failed beat is logged and the next one tries again. */
export function startHeartbeat(o: HeartbeatOptions): { stop: (options?: { forget?: boolean }) => Promise<void>; lastBeat: () => Date | null } {
  let inFlight: Promise<unknown> = Promise.resolve();
  let busy = false;
  let last: Date | null = null;
  const tick = () => {
    // A beat still waiting on the database (a cut network) is not joined by another.
    if (busy) return;
    busy = true;
    const at = new Date();
    inFlight = beat(o, at)
      .then((dead) => {
        if (o.slots() > 0) last = at;
        if (dead.length > 0) console.log(`stockroom worker: released the jobs of ${dead.length} dead worker(s): ${dead.join(', ')}`);
      })
      .catch((err: unknown) => console.error(`stockroom worker: heartbeat failed: ${err instanceof Error ? err.message : String(err)}`))
      .finally(() => {
        busy = false;
      });
  };
  tick();
  const timer = setInterval(tick, o.intervalMs ?? HEARTBEAT_MS);
  return {
    /** When this worker last beat (null before its first beat); not updated while it has no working slot. */
    lastBeat: () => last,
    /** Stops beating; the row is removed unless `forget: false` (jobs may still be locked under this worker's ids, and the others' lease check needs the row to release them). */
    async stop(options: { forget?: boolean } = {}) {
      clearInterval(timer);
      await inFlight;
      if (options.forget !== false) await removeHeartbeat(o.db, o.id).catch(() => undefined);
    },
  };
}
