import 'server-only';
/**
 * Writing runs. One run is one transaction; a suite's runs go in batched transactions of many runs
 * each, every table written with one multi-row INSERT per batch (never a round trip per row), and
 * on PostgreSQL all of a batch's INSERTs chained into one statement (bulk-insert.ts).
 */
import type { RunResult } from '../../harness';
import { BlobSet, type BlobRow } from '../core';
import { BLOB_PRUNE_LOCK, insertAll, type TableRows } from '../core';
import { getDb, type Database } from '../core';
import { assertJobHeld, type JobLease } from '../core';
import { Prisma as Sql } from '../generated/sqlite/client';
import { newId } from '../core';
import { buildRunRows, type RunRows } from './run-rows';
import { DEFAULT_TENANT } from '../../governance';
import { labelRedactions, lockedRunRedactions, mergeRedactions, runRedactors, storedRedactions } from '../governance';
import type { SaveRunInput, SaveRunMeta } from './types';

/** Runs per transaction when saving a batch (bounded further by MAX_ROWS_PER_TX). */
export const RUNS_PER_TX = 100;
/** Child rows per transaction before a batch is split, to keep statements and memory bounded. */
export const MAX_ROWS_PER_TX = 50_000;
/** Hashes per `IN (…)` list when pruning blobs. */
const HASHES_PER_STATEMENT = 1000;

/** The tables that store a batch of runs, in foreign-key order (written with insertAll). */
export function runTables(blobs: Iterable<BlobRow>, batch: RunRows[]): TableRows[] {
  const all = <T extends object>(pick: (r: RunRows) => T[]): T[] => batch.flatMap(pick);
  return [
    // A blob another run already stored is reused (content-addressed). In hash order, so writers
    // storing the same new payloads at once (workers, the server) lock them in one order: no deadlock.
    // Blobs already stored are locked against a concurrent prune until this write commits (shareExisting).
    { table: 'Blob', rows: [...blobs].sort((a, b) => (a.hash < b.hash ? -1 : a.hash > b.hash ? 1 : 0)), ignoreConflictOn: 'hash', shareExisting: true },
    { table: 'Run', rows: batch.map((r) => r.run) },
    { table: 'RunFlag', rows: all((r) => r.flags) },
    { table: 'Transition', rows: all((r) => r.transitions) },
    { table: 'ModelTurn', rows: all((r) => r.modelTurns) },
    { table: 'ToolCall', rows: all((r) => r.toolCalls) },
    { table: 'GuardEvent', rows: all((r) => r.guards) },
    { table: 'CompactionEvent', rows: all((r) => r.compactions) },
    { table: 'ModelCall', rows: all((r) => r.modelCalls) },
    { table: 'RunMessage', rows: all((r) => r.messages) },
    { table: 'RunBlobRef', rows: all((r) => r.blobRefs) },
    { table: 'RunGuardOn', rows: all((r) => r.guardsOn) },
    { table: 'RunAgent', rows: all((r) => r.agents) },
    // Kept when the run is stored again (not among RUN_OWN_TABLES): a stored-again run adds its new tags.
    { table: 'RunTag', rows: all((r) => r.tags), ignoreConflictOn: ['runId', 'tag'] },
    // The search index follows by trigger (SQLite FTS5) or index (PostgreSQL trigram GIN).
    { table: 'RunSearch', rows: batch.map((r) => r.search) },
    // A finished run outside a suite waits for its evaluators and the hourly rollup (the `watch` job,
    // lib/watch): an outbox row committed with the run, so no way of storing a run can skip it.
    { table: 'RunWatch', rows: watchRows(batch), ignoreConflictOn: 'runId' },
  ];
}

/** The outbox rows of the finished runs of a batch that no suite made (a suite scores its own runs). */
export function watchRows(batch: readonly RunRows[], now: Date = new Date()): Array<{ runId: string; tenant: string; createdAt: Date }> {
  return batch.filter((r) => r.run.status === 'finished' && !r.run.suiteRunId).map((r) => ({ runId: r.run.id, tenant: r.run.tenant ?? DEFAULT_TENANT, createdAt: now }));
}

async function writeBatch(db: Database, inputs: SaveRunInput[], ids: string[]): Promise<void> {
  const blobs = new BlobSet();
  const redactors = await runRedactors(db.prisma, inputs.map((input) => input.meta));
  const batch = inputs.map((input, i) => buildRunRows(input.run, input.meta, ids[i]!, blobs, redactors[i]));
  await db.prisma.$transaction(insertAll(db, runTables(blobs.rows.values(), batch)));
}

/**
 * Stores one run and everything it references in a single transaction: a failure anywhere leaves
 * nothing behind. Returns the stored run's id.
 */
export async function saveRun(run: RunResult, meta: SaveRunMeta, db: Database = getDb()): Promise<string> {
  const id = meta.id ?? newId();
  await writeBatch(db, [{ run, meta }], [id]);
  return id;
}

/**
 * Stores many runs (a suite) in batched transactions of up to RUNS_PER_TX runs. Each batch is
 * atomic; batches already committed stay if a later one fails. Returns ids in input order.
 */
export async function saveRuns(inputs: readonly SaveRunInput[], db: Database = getDb()): Promise<string[]> {
  const ids = inputs.map((input) => input.meta.id ?? newId());
  let start = 0;
  while (start < inputs.length) {
    // Validate and size the batch first: building rows is cheap next to writing them.
    let end = start;
    let rows = 0;
    while (end < inputs.length && end - start < RUNS_PER_TX) {
      const size = estimateRows(inputs[end]!.run);
      if (end > start && rows + size > MAX_ROWS_PER_TX) break;
      rows += size;
      end++;
    }
    await writeBatch(db, inputs.slice(start, end), ids.slice(start, end));
    start = end;
  }
  return ids;
}

function estimateRows(run: RunResult): number {
  const messages = run.modelInputs.reduce((n, m) => Math.max(n, m.messages.length), 0);
  return 1 + run.trajectory.length * 2 + run.transitions.length + run.modelInputs.length + messages;
}

/**
 * Deletes a run with its trajectory (foreign keys cascade), then the blobs no other run uses — in
 * one transaction. Returns false when there was no such run.
 */
export async function deleteRun(id: string, db: Database = getDb()): Promise<boolean> {
  return db.prisma.$transaction(async (tx) => (await deleteRunsIn({ prisma: tx as unknown as Database['prisma'], provider: db.provider, close: db.close }, [id])) > 0);
}

/**
 * Deletes runs `ids` inside the caller's transaction (`txDb`): their rows cascade, then the blobs no
 * other run uses go. Returns how many runs there were (deleteRun; the retention schedule).
 */
export async function deleteRunsIn(txDb: Database, ids: readonly string[]): Promise<number> {
  const refs = await txDb.prisma.runBlobRef.findMany({ where: { runId: { in: [...ids] } }, select: { hash: true } });
  const deleted = await txDb.prisma.run.deleteMany({ where: { id: { in: [...ids] } } });
  if (deleted.count > 0) for (const statement of pruneBlobs(txDb, refs.map((r) => r.hash))) await statement;
  return deleted.count;
}

/**
 * Replaces a stored run with a newer RunResult under the same id (a live run after each step, a
 * governed run that resumed after a decision) in one transaction: the new version arrives whole, or
 * nothing changes. The Run row is updated in place and only the rows the run itself wrote are
 * replaced (RUN_OWN_TABLES): rows others keep under the run — a reviewer's label (RunLabel), a suite's
 * case (SuiteCase) — stay, and so do the label comments' entries in its redactions list. (Deleting the
 * Run row and inserting it again took those with it through the foreign keys' cascade.) Blobs only
 * the old version used are pruned in the same transaction. Under a job lease (a queued run on a
 * PostgreSQL worker) the transaction first checks the job is still this worker's (job-lease.ts):
 * a worker that lost it stores nothing over what the new owner stores.
 */
export async function replaceRun(run: RunResult, meta: SaveRunMeta & { id: string }, db: Database = getDb(), lease?: JobLease): Promise<void> {
  const prepared = await prepareRunAgain(run, meta, db);
  await db.prisma.$transaction(async (tx) => {
    const txDb: Database = { prisma: tx as unknown as Database['prisma'], provider: db.provider, close: db.close };
    if (lease && db.provider === 'postgres') await assertJobHeld(tx, lease);
    // It writes and prunes: the exclusive lock from the start (shared, then exclusive, would deadlock two replaces).
    await lockBlobsForPruneIn(txDb);
    await writeRunAgainIn(txDb, prepared);
  }, REPLACE_TX_OPTIONS);
}

/**
 * An interactive transaction's limits (Prisma's default gives up after 5 s): a long run's thousands of
 * rows, or a wait behind a prune or another writer, must not fail a live run's store.
 */
const REPLACE_TX_OPTIONS = { maxWait: 30_000, timeout: 120_000 };

/** A run's rows built (and redacted) to be stored again under its id: replaceRun, the redaction rewrite. */
export interface PreparedRun {
  id: string;
  rows: RunRows;
  blobs: BlobSet;
  /** Blobs the stored version references that the new one does not (pruned when no other run uses them). */
  stale: string[];
}

/** Builds `run`'s rows under the tenant's current redaction (outside any transaction: it reads keys and blobs). */
export async function prepareRunAgain(run: RunResult, meta: SaveRunMeta & { id: string }, db: Database): Promise<PreparedRun> {
  const old = await db.prisma.runBlobRef.findMany({ where: { runId: meta.id }, select: { hash: true } });
  const blobs = new BlobSet();
  const [redactor] = await runRedactors(db.prisma, [meta]);
  const rows = buildRunRows(run, meta, meta.id, blobs, redactor);
  return { id: meta.id, rows, blobs, stale: old.map((r) => r.hash).filter((h) => !blobs.rows.has(h)) };
}

/** PostgreSQL: BLOB_PRUNE_LOCK exclusively, until the caller's transaction commits (a no-op on SQLite). Take it first. */
export async function lockBlobsForPruneIn(txDb: Database): Promise<void> {
  if (txDb.provider === 'postgres') await lockBlobsForPrune(txDb);
}

/**
 * Stores `prepared` over its stored version inside the caller's transaction (after lockBlobsForPruneIn):
 * the Run row updated in place, its own rows replaced, the blobs only the old version used pruned.
 * Its redactions list keeps the label comments' entries — or, with `rewrite` (redact --rewrite), every
 * stored entry (the content already redacted is not found again), the row's createdAt and redactedAt then set.
 */
export async function writeRunAgainIn(txDb: Database, prepared: PreparedRun, rewrite?: { createdAt: Date; redactedAt: Date }): Promise<void> {
  const stored = await lockedRunRedactions(txDb.prisma, txDb.provider, prepared.id);
  // A copy: a transaction retried (withEvidenceTx) writes the same rows again, nothing merged twice.
  const run = { ...prepared.rows.run, redactions: mergeRedactions(prepared.rows.run.redactions ?? null, rewrite ? storedRedactions(stored) : labelRedactions(stored)), ...rewrite };
  const rows = { ...prepared.rows, run };
  const tables = runTables(prepared.blobs.rows.values(), [rows]).map((t) => ({ ...t, shareExisting: false, ...(t.table === 'Run' ? { updateOn: 'id' } : {}) }));
  for (const statement of [...deleteOwnRows(txDb, prepared.id), ...insertAll(txDb, tables), ...pruneBlobs(txDb, prepared.stale, true)]) await statement;
}

/**
 * The tables whose rows of a run the run itself writes (runTables, but for Blob, Run and RunTag): a
 * stored-again run replaces them. Its tags stay (a step of a live run, a redaction rewrite or a trace
 * rebuilt from more spans never takes a tag away).
 */
const RUN_OWN_TABLES = runTables([], []).map((t) => t.table).filter((t) => t !== 'Blob' && t !== 'Run' && t !== 'RunTag');

/** Statements deleting run `id`'s rows in RUN_OWN_TABLES (PostgreSQL: one statement of data-modifying CTEs). */
function deleteOwnRows(db: Database, id: string): Statement[] {
  const deletes = RUN_OWN_TABLES.map((table) => Sql.sql`DELETE FROM ${Sql.raw(`"${table}"`)} WHERE "runId" = ${id}`);
  if (db.provider !== 'postgres') return deletes.map((sql) => db.prisma.$executeRaw`${sql}`);
  const last = deletes.pop()!;
  return [db.prisma.$executeRaw`WITH ${Sql.join(deletes.map((sql, i) => Sql.sql`${Sql.raw(`"d${i}"`)} AS (${sql})`))} ${last}`];
}

/**
 * Statements deleting those of `hashes` no run references any more, to run in order inside the
 * caller's transaction. PostgreSQL: BLOB_PRUNE_LOCK is taken exclusively first, which waits for
 * every write in flight (they hold it shared until they commit); the DELETE that follows is a new
 * statement, so under READ COMMITTED it sees their references and keeps those blobs. A write that
 * starts meanwhile waits for this transaction, then finds a pruned blob gone and inserts it again.
 * No failure, no retry. (SQLite has one writer at a time.)
 */
function pruneBlobs(db: Database, hashes: readonly string[], locked = false): Statement[] {
  const p = db.prisma;
  const unique = [...new Set(hashes)];
  const statements: Statement[] = [];
  if (unique.length === 0) return statements;
  if (db.provider === 'postgres' && !locked) statements.push(lockBlobsForPrune(db));
  for (let i = 0; i < unique.length; i += HASHES_PER_STATEMENT) {
    const chunk = unique.slice(i, i + HASHES_PER_STATEMENT);
    statements.push(p.$executeRaw`DELETE FROM "Blob" WHERE "hash" IN (${Sql.join(chunk)}) AND NOT EXISTS (SELECT 1 FROM "RunBlobRef" r WHERE r."hash" = "Blob"."hash")`);
  }
  return statements;
}

/** PostgreSQL: BLOB_PRUNE_LOCK exclusively, until commit. */
function lockBlobsForPrune(db: Database): Statement {
  return db.prisma.$executeRaw`SELECT count(*) FROM (SELECT pg_advisory_xact_lock(hashtext(${BLOB_PRUNE_LOCK}))) AS l`;
}

type Statement = ReturnType<Database['prisma']['$executeRaw']>;
