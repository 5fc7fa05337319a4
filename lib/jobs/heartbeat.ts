/**
 * Worker heartbeats and leases (instead of a boot-time grace window): each worker touches its row
 * every HEARTBEAT_MS; a worker not seen for WORKER_LEASE_MS is dead, and whichever live worker
 * notices first releases the jobs it held (graphile-worker forceUnlockWorkers), so another worker
 * takes them at once. A job released from a worker that was only slow or paused may still be running
 * there: its stores are fenced by the job's lease (lib/db/core/job-lease.ts), so it stores nothing once the
 * job is another worker's.
 *
 * The lease, as other code may rely on it: a job is held by the worker whose pool id its row's
 * `locked_by` names (JobContext.lease); the worker keeps it while its heartbeat row is younger than
 * WORKER_LEASE_MS. A worker beats only while its pool has working slots (`slots() > 0`): one whose
 * pool died (graphile-worker shuts a pool down when it cannot complete or fail a job) stops beating
 * until its pool is restored, so if it stays that way the others release its jobs.
 *
 * Detection at the lease's end, not at the judge's next beat (issue 42): each beat returns how long
 * every other worker's lease still runs, and the judge wakes when the first of them ends (plus
 * EXPIRY_SLACK_MS), so a dead worker is released WORKER_LEASE_MS after its last beat rather than up
 * to a beat interval later. The judge re-reads the row then: a worker that beat meanwhile is alive.
 *
 * No judging without a view of the database (issue 42): a worker that could not beat (the database
 * was away, its own pool had stopped) has not seen the others beat either, and they may not have
 * been able to; it judges again only once it has beaten without a gap for a whole lease. Otherwise
 * a PostgreSQL restart longer than the lease would have the first worker back release every other.
 */
import { HEARTBEAT_MS, WORKER_LEASE_MS, type HeartbeatStore, type PeerLease } from '../db/core';

/** Past a lease's end by the database clock before the judge re-reads it (the row's ms rounding, timer lateness). */
const EXPIRY_SLACK_MS = 50;

export interface HeartbeatOptions {
  store: HeartbeatStore;
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

/** What one beat did: the dead workers it released, and when the next lease of another worker ends (ms, null: none). */
export interface BeatResult {
  released: string[];
  nextExpiryMs: number | null;
  /** This worker's row had to be created (on any beat but the first: another worker had taken it for dead). */
  created: boolean;
}

/**
 * Releases the jobs of the peers past their lease and forgets them (unless one beat meanwhile).
 * Returns the ids released and the time left on the earliest live lease.
 */
async function judge(o: HeartbeatOptions, peers: PeerLease[], leaseMs: number): Promise<Omit<BeatResult, 'created'>> {
  const released: string[] = [];
  let nextExpiryMs: number | null = null;
  for (const p of peers) {
    if (p.leftMs > 0) {
      nextExpiryMs = nextExpiryMs === null ? p.leftMs : Math.min(nextExpiryMs, p.leftMs);
      continue;
    }
    await o.release(p.workerIds);
    await o.store.forget(p.id, leaseMs);
    released.push(p.id);
  }
  return { released, nextExpiryMs };
}

/**
 * One beat: touch our row (with the working slots), then, when `judging`, release and forget the
 * workers past their lease. A worker with no working slot skips the beat altogether (null).
 */
export async function beat(o: HeartbeatOptions, judging = true): Promise<BeatResult | null> {
  const slots = o.slots();
  if (slots <= 0) return null;
  const leaseMs = o.leaseMs ?? WORKER_LEASE_MS;
  const { peers, created } = await o.store.touch({ id: o.id, workerIds: o.workerIds(), concurrency: o.concurrency, slots }, leaseMs);
  if (!judging) return { released: [], nextExpiryMs: null, created };
  return { ...(await judge(o, peers, leaseMs)), created };
}

/**
 * Beats now and every interval until stopped, and judges the others when their leases end; a failed
 * beat is logged and the next one tries again. Judging runs beside the beats, never in front of them:
 * a release can wait on a job row that a paused worker's store holds locked (FOR SHARE, lib/db/core/job-lease.ts)
 * until that worker wakes, and a judge whose own beats queued behind it would itself look dead.
 */
export function startHeartbeat(o: HeartbeatOptions): { stop: (options?: { forget?: boolean }) => Promise<void>; lastBeat: () => Date | null } {
  const intervalMs = o.intervalMs ?? HEARTBEAT_MS;
  const leaseMs = o.leaseMs ?? WORKER_LEASE_MS;
  let inFlight: Promise<unknown> = Promise.resolve();
  let judgement: Promise<unknown> | null = null;
  let busy = false;
  let stopped = false;
  let last: Date | null = null;
  /** Since when every beat landed (−∞: since the start; null: the last one did not); a worker judges only after a whole lease of it. */
  let unbrokenSince: number | null = Number.NEGATIVE_INFINITY;
  let wake: NodeJS.Timeout | null = null;
  const scheduleWake = (ms: number | null) => {
    if (wake) clearTimeout(wake);
    wake = null;
    // A lease ending after the next regular beat is looked at by that beat.
    if (ms === null || stopped || ms + EXPIRY_SLACK_MS >= intervalMs) return;
    wake = setTimeout(tick, Math.max(0, ms) + EXPIRY_SLACK_MS);
  };
  const startJudging = (peers: PeerLease[]) => {
    if (judgement || stopped) return; // one judgement at a time; the beats go on meanwhile
    judgement = judge(o, peers, leaseMs)
      .then((r) => {
        if (r.released.length > 0) console.log(`stockroom worker: released the jobs of ${r.released.length} dead worker(s): ${r.released.join(', ')}`);
        scheduleWake(r.nextExpiryMs);
      })
      .catch((err: unknown) => console.error(`stockroom worker: releasing dead workers failed: ${err instanceof Error ? err.message : String(err)}`))
      .finally(() => {
        judgement = null;
      });
  };
  const tick = () => {
    // A beat still waiting on the database (a cut network) is not joined by another.
    if (busy || stopped) return;
    const slots = o.slots();
    if (slots <= 0) {
      unbrokenSince = null; // no working slot: not beating
      return;
    }
    busy = true;
    const at = Date.now();
    inFlight = o.store
      .touch({ id: o.id, workerIds: o.workerIds(), concurrency: o.concurrency, slots }, leaseMs)
      .then(({ peers, created }) => {
        const judging = unbrokenSince !== null && at - unbrokenSince >= leaseMs;
        unbrokenSince ??= at;
        // Said loudly: a live worker taken for dead is what the lease's length is chosen to avoid (issue 42).
        if (created && last !== null) console.error(`stockroom worker: this worker was taken for dead (its heartbeat row was gone, silent past the ${leaseMs} ms lease): the jobs it was running were released to the others, and their stores here are refused`);
        if (o.slots() > 0) last = new Date(at);
        if (judging) startJudging(peers);
      })
      .catch((err: unknown) => {
        unbrokenSince = null;
        console.error(`stockroom worker: heartbeat failed: ${err instanceof Error ? err.message : String(err)}`);
      })
      .finally(() => {
        busy = false;
      });
  };
  tick();
  const timer = setInterval(tick, intervalMs);
  return {
    /** When this worker last beat (null before its first beat); not updated while it has no working slot. */
    lastBeat: () => last,
    /** Stops beating; the row is removed unless `forget: false` (jobs may still be locked under this worker's ids, and the others' lease check needs the row to release them). */
    async stop(options: { forget?: boolean } = {}) {
      stopped = true;
      clearInterval(timer);
      if (wake) clearTimeout(wake);
      await inFlight;
      await judgement;
      if (options.forget !== false) await o.store.remove(o.id).catch(() => undefined);
      await o.store.close().catch(() => undefined);
    },
  };
}
