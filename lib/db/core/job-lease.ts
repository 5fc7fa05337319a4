import 'server-only';
/**
 * Fencing a job's stores by its lease. A worker holds a job while graphile-worker's row names it
 * (`locked_by` = the worker pool's id). A worker that was paused (SIGSTOP, a long GC, a VM stall)
 * or cut off past its heartbeat lease has its jobs released to the others; when it wakes it must not
 * store a second copy or overwrite what the new owner stored. So every store a job makes calls
 * `assertJobHeld` inside its own transaction: the job row is locked FOR SHARE (a release, an
 * UPDATE of the row, waits for the store to commit; a store after a release sees it) and the store
 * is refused unless the row still names this worker.
 */
import { DbError } from './errors';
import { Prisma as Sql } from '../generated/sqlite/client';

/** The schema graphile-worker keeps its tables in (lib/jobs/graphile.ts re-exports it). */
export const GRAPHILE_SCHEMA = 'graphile_worker';

/** The job a handler runs under: graphile-worker's job id and the lock it holds it with. */
export interface JobLease {
  /** graphile-worker's job id (a bigint, as text). */
  jobId: string;
  /** The `locked_by` this worker locks jobs with (graphile-worker 0.17: the worker pool's id). */
  lockedBy: string;
  /**
   * When graphile-worker locked the job for this attempt (its `locked_at`). A job released from this
   * worker and locked again by the same pool (same `locked_by`) is a new lease: the earlier attempt,
   * still running after a pause, must not pass for the new one. Absent: the pool id alone is checked.
   */
  lockedAt?: Date;
}

/**
 * The SQL condition that a job row is still under `lease` ($2 = locked_by, $3 = locked_at in epoch ms
 * or null), the one definition every check uses. The lock times are compared within a millisecond:
 * PostgreSQL keeps microseconds, a JavaScript Date milliseconds.
 */
export const HELD_BY_LEASE_SQL = `locked_by = $2::text AND ($3::float8 IS NULL OR abs(extract(epoch FROM locked_at) * 1000 - $3::float8) < 1)`;

/** The parameters HELD_BY_LEASE_SQL reads after the job id. */
export function leaseParams(lease: JobLease): [string, number | null] {
  return [lease.lockedBy, lease.lockedAt ? lease.lockedAt.getTime() : null];
}

/** HELD_BY_LEASE_SQL as a fragment of a Prisma SQL template: the same text, `$2` and `$3` bound to the lease's values. */
export function heldByLease(lease: JobLease): Sql.Sql {
  const [lockedBy, lockedAt] = leaseParams(lease);
  const values = [...HELD_BY_LEASE_SQL.matchAll(/\$([23])/g)].map((m) => (m[1] === '2' ? lockedBy : lockedAt));
  return new Sql.Sql(HELD_BY_LEASE_SQL.split(/\$[23]/), values);
}

/**
 * A query of at most one row (PostgreSQL): the job's `locked_by` and whether it is still under
 * `lease` (`held`; no row when the job is gone), unlocked: the check a worker makes before it
 * completes a job, folded into its last statement (finishSuiteIfComplete).
 */
export function leaseStateSql(lease: JobLease): Sql.Sql {
  return Sql.sql`SELECT "locked_by", (${heldByLease(lease)}) AS "held" FROM ${Sql.raw(`${GRAPHILE_SCHEMA}._private_jobs`)} WHERE id = ${lease.jobId}::bigint`;
}

/**
 * A query of one row (PostgreSQL, for insertAllWhen's guard): the job's row locked FOR SHARE and
 * whether it is still under `lease` (`held`: null when the job is gone), as assertJobHeld checks it.
 */
export function leaseRowSql(lease: JobLease): Sql.Sql {
  return Sql.sql`${leaseStateSql(lease)} FOR SHARE`;
}

/** The job's lease was lost (released to another worker, or the job is gone): nothing was stored. */
export class JobLeaseLostError extends DbError {
  readonly jobId: string;
  constructor(lease: JobLease, holder: string | null) {
    const now = holder === null ? 'released or finished' : holder === lease.lockedBy ? 'released and locked again by this worker for a later attempt' : `now held by ${holder}`;
    super('job_lease_lost', `job ${lease.jobId} is no longer held by this worker (${now}); nothing was stored`);
    this.jobId = lease.jobId;
  }
}

/** The part of a Prisma transaction client the check uses. */
export interface RawTx {
  $queryRawUnsafe<T = unknown>(query: string, ...values: unknown[]): Promise<T>;
}

/**
 * Inside a PostgreSQL transaction: locks the job's row FOR SHARE and throws JobLeaseLostError
 * unless it is still locked by `lease.lockedBy`. The lock is held until the transaction ends, so
 * the job cannot be released between this check and the commit.
 */
export async function assertJobHeld(tx: RawTx, lease: JobLease): Promise<void> {
  const rows = await tx.$queryRawUnsafe<{ locked_by: string | null; held: boolean }[]>(
    `SELECT locked_by, (${HELD_BY_LEASE_SQL}) AS held FROM ${GRAPHILE_SCHEMA}._private_jobs WHERE id = $1::bigint FOR SHARE`,
    lease.jobId,
    ...leaseParams(lease),
  );
  if (rows[0]?.held !== true) throw new JobLeaseLostError(lease, rows[0]?.locked_by ?? null);
}

/**
 * Whether the job is still locked by `lease.lockedBy` (outside a transaction: a governed resume's owner,
 * lib/governance/governance-store.ts ResumeOwner). False once it was released, handed back, failed or
 * finished, or when graphile-worker's tables do not exist (no worker ever ran here).
 */
export async function jobHeld(tx: RawTx, lease: JobLease): Promise<boolean> {
  if (!/^\d+$/.test(lease.jobId)) return false;
  const rows = await tx
    .$queryRawUnsafe<{ held: boolean }[]>(`SELECT (${HELD_BY_LEASE_SQL}) AS held FROM ${GRAPHILE_SCHEMA}._private_jobs WHERE id = $1::bigint`, lease.jobId, ...leaseParams(lease))
    .catch(() => [] as { held: boolean }[]);
  return rows[0]?.held === true;
}
