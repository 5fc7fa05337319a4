/**
 * Whether a job failed because its connection to the database was lost (PostgreSQL restarted or
 * failed over, the network was cut) rather than because of the job itself. Such a failure is not
 * the job's fault: it is handed back without spending one of its attempts (lib/jobs/graphile.ts).
 * The one classifier is lib/db/core/unavailable.ts (the error may come from pg in graphile-worker's pool,
 * from Prisma over its pg adapter, or wrapped as a `cause`); a lost connection is its `unreachable`.
 */
import { asDatabaseUnavailable } from '../db/core';

/** True when the error (or any cause of it) says the database connection was lost or refused. */
export function isConnectionLost(err: unknown): boolean {
  return asDatabaseUnavailable(err)?.reason === 'unreachable';
}
