/**
 * Worker heartbeats and leases (instead of a boot-time grace window): each worker touches its row
 * every HEARTBEAT_MS; a worker not seen for WORKER_LEASE_MS is dead, and whichever live worker
 * notices first releases the jobs it held (graphile-worker forceUnlockWorkers), so another worker
 * takes them at once. A job released from a worker that was only slow runs twice at worst, and
 * its case is stored once (storeSuiteCase and the Run table's unique key).
 */
import type { Database } from '../db/client';
import { deadWorkers, forgetWorker, HEARTBEAT_MS, removeHeartbeat, touchHeartbeat, WORKER_LEASE_MS } from '../db/worker-heartbeats';

export interface HeartbeatOptions {
  db: Database;
  /** This process's heartbeat id (host:pid:random). */
  id: string;
  concurrency: number;
  workerIds: () => readonly string[];
  /** Releases the jobs of dead workers' graphile ids. */
  release: (workerIds: string[]) => Promise<void>;
  intervalMs?: number;
  leaseMs?: number;
}

/** One beat: touch our row, then release and forget workers past their lease. Returns the dead heartbeat ids handled. */
export async function beat(o: HeartbeatOptions, now: Date = new Date()): Promise<string[]> {
  await touchHeartbeat(o.db, { id: o.id, workerIds: o.workerIds(), concurrency: o.concurrency }, now);
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
export function startHeartbeat(o: HeartbeatOptions): { stop: (options?: { forget?: boolean }) => Promise<void> } {
  let inFlight: Promise<unknown> = Promise.resolve();
  const tick = () => {
    inFlight = beat(o)
      .then((dead) => {
        if (dead.length > 0) console.log(`stockroom worker: released the jobs of ${dead.length} dead worker(s): ${dead.join(', ')}`);
      })
      .catch((err: unknown) => console.error('stockroom worker: heartbeat failed', err));
  };
  tick();
  const timer = setInterval(tick, o.intervalMs ?? HEARTBEAT_MS);
  return {
    /** Stops beating; the row is removed unless `forget: false` (jobs may still be locked under this worker's ids, and the others' lease check needs the row to release them). */
    async stop(options: { forget?: boolean } = {}) {
      clearInterval(timer);
      await inFlight;
      if (options.forget !== false) await removeHeartbeat(o.db, o.id).catch(() => undefined);
    },
  };
}
