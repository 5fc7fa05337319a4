/**
 * The platform under every area of lib/db (floor db/core): the one Prisma client (SQLite or PostgreSQL by
 * DATABASE_URL, its adapters, the SQLite direct path and multi-row inserts), the data layer's errors and ids,
 * the database-unavailable guard, content-addressed blobs, the job lease and worker heartbeats, demo faults.
 *
 * The area's entry: lib/ code outside lib/db/core imports it only from here (lib/import-graph.test.ts).
 */
export { BlobSet, decodeMessage, encodeMessage, parseStoredJson, sha256, skeletonRefs, type BlobRow } from './blobs';
export { BLOB_PRUNE_LOCK, insertAll, insertAllWhen, insertSqlite, writeTables, type TableRows } from './bulk-insert';
export { getDb, openDatabase, PG_POOL_SIZE, type Database, type Prisma } from './client';
export { resolveDatabaseUrl } from './database-url';
export { armedFault, armFault, takeFault } from './demo-faults';
export { DbError, InvalidInputError, NotFoundError } from './errors';
export { newId } from './ids';
export { assertJobHeld, GRAPHILE_SCHEMA, HELD_BY_LEASE_SQL, jobHeld, JobLeaseLostError, leaseParams, leaseRowSql, leaseStateSql, type JobLease } from './job-lease';
export { heldClient, holdingClient } from './pg-adapter';
export { rawRows } from './pg-direct';
export { prepared, sqliteValue, writeTransaction, type SqliteConnection } from './sqlite-direct';
export { asDatabaseUnavailable, isDatabaseUnavailable, type UnavailableReason } from './unavailable';
export { HEARTBEAT_MS, openHeartbeatStore, WORKER_LEASE_MS, type HeartbeatStore, type PeerLease } from './worker-heartbeats';
