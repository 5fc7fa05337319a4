import 'server-only';
/**
 * Worker heartbeat rows: each worker process touches its row every HEARTBEAT_MS; one not seen for
 * WORKER_LEASE_MS is dead. lib/jobs/heartbeat.ts keeps the timer and releases the dead workers' jobs.
 * A row says how many of the worker's slots still take jobs; a worker whose pool has none left does
 * not beat at all (it cannot work, so it must not look alive and keep its jobs from the others).
 *
 * Beats go over a connection of their own (HeartbeatStore), never through the data layer's pool the
 * jobs use: a worker whose jobs hold every pooled connection (long transactions, a lock wait) still
 * beats, so it is not taken for dead because it is busy. Times are the database's clock (`now()`)
 * on both sides, the writer's and the judge's, so clocks that differ between machines move no lease.
 */
import pg from 'pg';

/**
 * How often a worker says it is alive. One UPSERT a second per worker on its own connection.
 * The kill → takeover time is WORKER_LEASE_MS − (0…HEARTBEAT_MS) (issue 42: ≤ 15 s decision →
 * finished after a kill -9, measured with these values in docs/guides/reviewing-approvals.md).
 */
export const HEARTBEAT_MS = 1_000;
/**
 * A worker silent this long is dead and its jobs are released: six beat intervals, so a live worker
 * is released only if five beats in a row (each a single-row UPSERT on its own connection, from its
 * own timer) could not land — its event loop blocked or the process stopped for more than 5 s, or
 * its network down. Such a worker's late stores are refused anyway (the job's lease,
 * lib/db/job-lease.ts). Judging is suspended while the judge itself could not reach the database
 * (lib/jobs/heartbeat.ts), so a PostgreSQL restart longer than a lease releases nobody.
 */
export const WORKER_LEASE_MS = 6_000;
/** A beat or a judgement that has not answered in this long has failed (a cut network must not hang the heartbeat). */
const QUERY_TIMEOUT_MS = 5_000;

/** Another worker's row as the judge sees it: its graphile ids and how long its lease still runs (≤ 0: over). */
export interface PeerLease {
  id: string;
  workerIds: string[];
  /** Milliseconds until its lease ends, by the database's clock (negative: ended that long ago). */
  leftMs: number;
}

/** The heartbeat table over a connection of its own. */
export interface HeartbeatStore {
  /**
   * Touches (or creates) this worker's row (database clock) and returns every other worker's lease, and
   * whether the row had to be created (a worker past its first beat finding it gone was taken for dead).
   */
  touch(row: { id: string; workerIds: readonly string[]; concurrency: number; slots: number }, leaseMs: number): Promise<{ peers: PeerLease[]; created: boolean }>;
  /** Every other worker's lease, without touching this worker's row. */
  peers(self: string, leaseMs: number): Promise<PeerLease[]>;
  /** Forgets a dead worker, unless it beat again within the lease meanwhile. Returns whether it was forgotten. */
  forget(id: string, leaseMs: number): Promise<boolean>;
  /** Removes this worker's own row when it stops. */
  remove(id: string): Promise<void>;
  close(): Promise<void>;
}

const PEERS_SQL = `SELECT id, "workerIds" AS worker_ids,
         (EXTRACT(EPOCH FROM ("lastSeen" - (now() AT TIME ZONE 'UTC'))) * 1000 + $2::int)::float8 AS left_ms
    FROM "WorkerHeartbeat" WHERE id <> $1`;

function peersOf(rows: { id: string; worker_ids: string; left_ms: number }[]): PeerLease[] {
  return rows.map((r) => ({ id: r.id, workerIds: JSON.parse(r.worker_ids) as string[], leftMs: Number(r.left_ms) }));
}

/**
 * Opens the heartbeat store on a one-connection pool of its own (reconnected after a PostgreSQL
 * restart by the pool). `lastSeen` is written as UTC, as Prisma writes its DateTime columns.
 */
export function openHeartbeatStore(connectionString: string): HeartbeatStore {
  const pool = new pg.Pool({ connectionString, max: 1, idleTimeoutMillis: 30_000, connectionTimeoutMillis: QUERY_TIMEOUT_MS, query_timeout: QUERY_TIMEOUT_MS, application_name: 'stockroom-heartbeat' });
  // An idle connection dropped by a restart is reported here; the next beat reconnects.
  pool.on('error', () => undefined);
  return {
    async touch(row, leaseMs) {
      const r = await pool.query<{ id: string | null; worker_ids: string | null; left_ms: number | null; created: boolean }>(
        `WITH me AS (
           INSERT INTO "WorkerHeartbeat" (id, "workerIds", concurrency, slots, "startedAt", "lastSeen")
           VALUES ($1, $3, $4, $5, now() AT TIME ZONE 'UTC', now() AT TIME ZONE 'UTC')
           ON CONFLICT (id) DO UPDATE SET "workerIds" = EXCLUDED."workerIds", slots = EXCLUDED.slots, "lastSeen" = EXCLUDED."lastSeen"
           RETURNING (xmax = 0) AS created
         ), peers AS (${PEERS_SQL})
         SELECT peers.*, me.created FROM me LEFT JOIN peers ON true`,
        [row.id, leaseMs, JSON.stringify(row.workerIds), row.concurrency, row.slots],
      );
      const peers = r.rows.flatMap((p) => (p.id !== null && p.worker_ids !== null && p.left_ms !== null ? [{ id: p.id, worker_ids: p.worker_ids, left_ms: p.left_ms }] : []));
      return { peers: peersOf(peers), created: r.rows[0]?.created ?? false };
    },
    async peers(self, leaseMs) {
      return peersOf((await pool.query<{ id: string; worker_ids: string; left_ms: number }>(PEERS_SQL, [self, leaseMs])).rows);
    },
    async forget(id, leaseMs) {
      const r = await pool.query(`DELETE FROM "WorkerHeartbeat" WHERE id = $1 AND "lastSeen" < (now() AT TIME ZONE 'UTC') - make_interval(secs => $2::float8 / 1000)`, [id, leaseMs]);
      return (r.rowCount ?? 0) > 0;
    },
    async remove(id) {
      await pool.query(`DELETE FROM "WorkerHeartbeat" WHERE id = $1`, [id]);
    },
    close: () => pool.end(),
  };
}
