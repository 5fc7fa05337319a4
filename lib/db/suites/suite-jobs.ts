import 'server-only';
/**
 * Suites worked on as jobs, one case at a time by any worker (lib/jobs). What is stored is the
 * truth: a case is done when its run and its SuiteCase row are stored (one transaction, and the
 * Run table's unique (suiteRunId, setting, caseId, epoch) makes a second store of the same case's
 * epoch fail), so
 * progress is counted from stored cases, never from a counter that can disagree with them.
 */
import { aggregate } from '../../eval';
import { CaseScoresSchema, type CaseScores } from '../../eval';
import type { RunResult } from '../../harness';
import { BlobSet } from '../core';
import { getDb, type Database } from '../core';
import { NotFoundError } from '../core';
import { newId } from '../core';
import { json } from '../runs';
import { buildRunRows } from '../runs';
import { runRedactors } from '../governance';
import { runTables } from '../runs';
import { insertAll, insertAllWhen, insertSqlite } from '../core';
import { Prisma as Sql } from '../generated/sqlite/client';
import { prepared, writeTransaction, type SqliteConnection } from '../core';
import { WORKER_LEASE_MS } from '../core';
import { JobLeaseLostError, leaseRowSql, leaseStateSql, type JobLease } from '../core';
import { rawRows } from '../core';
import { FAKE_MODEL, NOISY_FAKE_MODEL, NOISY_FAKE_MODEL_ID } from '../../harness';
import { FAKE_MODEL_ID } from '../../harness';
import type { WorkerPresence } from '../../format';
import type { SaveRunMeta } from '../runs';

/** Statuses a worker may still add cases to. */
const ACTIVE = ['queued', 'running'];

/** What `storeSuiteCase` did. */
export type StoreCaseOutcome = { stored: true; runId: string } | { stored: false; reason: 'already-stored' | 'suite-not-active' };

export interface SuiteCaseInput {
  run: RunResult;
  meta: SaveRunMeta & { suiteRunId: string };
  setting: string;
  caseId: string;
  /** Which repetition of the case, from 0 (a suite with epochs > 1 stores one row per epoch). */
  epoch?: number;
  category: string | null;
  scores: CaseScores;
  /**
   * The job this case is stored under (a PostgreSQL worker): the store is refused with
   * JobLeaseLostError, in the same transaction, once the job was released to another worker.
   */
  lease?: JobLease;
}

/**
 * Whether a store failed because its rows are stored already (a unique key), on either database and
 * either SQLite path. Any other constraint (a foreign key, NOT NULL, a CHECK or trigger) is a real
 * failure and is thrown, never reported as "already stored".
 */
export function isUniqueViolation(err: unknown): boolean {
  const text = err instanceof Error ? `${err.message} ${String((err as { code?: unknown }).code ?? '')}` : String(err);
  return /unique|23505|P2002|SQLITE_CONSTRAINT_(UNIQUE|PRIMARYKEY)/i.test(text);
}

/**
 * Stores one suite case: its run and its score row in one transaction, only while the suite is
 * queued or running. The suite row is locked first (PostgreSQL: shared, so workers store in
 * parallel; a cancel waits for stores in flight and they wait for it), so a cancelled suite never
 * gains a case after its partial result was written. A case stored before (another worker, a
 * retried job) is not stored again: the unique constraint refuses it and nothing is written. Under a
 * job lease (PostgreSQL workers) the job row is checked in the same transaction: a worker that lost
 * its job (paused past its lease, cut off) stores nothing (JobLeaseLostError), see job-lease.ts.
 */
export async function storeSuiteCase(input: SuiteCaseInput, db: Database = getDb()): Promise<StoreCaseOutcome> {
  const runId = newId();
  const blobs = new BlobSet();
  const epoch = input.epoch ?? 0;
  const [redactor] = await runRedactors(db.prisma, [input.meta]);
  const rows = buildRunRows(input.run, { ...input.meta, epoch }, runId, blobs, redactor);
  const suiteRunId = input.meta.suiteRunId;
  const suiteCase = { suiteRunId, setting: input.setting, caseId: input.caseId, epoch, category: input.category, runId, scores: JSON.stringify(input.scores) };
  const tables = [...runTables(blobs.rows.values(), [rows]), { table: 'SuiteCase', rows: [suiteCase] }];
  // The embedded default: the same statements on the synchronous connection (sqlite-direct.ts), in
  // one transaction with the other cases stored in this turn of the event loop.
  if (db.direct) return storeDirect(db.direct(), { suiteRunId, runId, statements: insertSqlite(tables) });
  try {
    if (db.provider === 'postgres') {
      // One statement: the job's lease and the suite's status read and locked FOR SHARE (a release of the
      // job, a cancel of the suite waits for it to commit), the run and its case row written only when both hold.
      const lease = input.lease ? Sql.sql`LEFT JOIN LATERAL (${leaseRowSql(input.lease)}) l ON TRUE` : Sql.sql`LEFT JOIN LATERAL (SELECT NULL::text AS "locked_by", TRUE AS "held") l ON TRUE`;
      const [check] = await insertAllWhen<{ go: boolean; status: string | null; locked_by: string | null; held: boolean | null }>(
        db,
        tables,
        Sql.sql`SELECT s."status", l."locked_by", l."held", (s."status" IN (${Sql.join(ACTIVE)}) AND l."held") AS "go" FROM (SELECT 1) AS one
          LEFT JOIN LATERAL (SELECT "status" FROM "SuiteRun" WHERE "id" = ${suiteRunId} FOR SHARE) s ON TRUE ${lease}`,
      );
      if (input.lease && check?.held !== true) throw new JobLeaseLostError(input.lease, check?.locked_by ?? null);
      if (!check?.status || !ACTIVE.includes(check.status)) return { stored: false, reason: 'suite-not-active' };
      return { stored: true, runId };
    }
    return await db.prisma.$transaction(async (tx) => {
      const txDb: Database = { prisma: tx as unknown as Database['prisma'], provider: db.provider, close: db.close };
      // SQLite: a write takes the database lock now, so a cancel cannot slip in between.
      await tx.$executeRaw`UPDATE "SuiteRun" SET "status" = "status" WHERE "id" = ${suiteRunId}`;
      const active = await tx.$queryRaw<{ status: string }[]>`SELECT "status" FROM "SuiteRun" WHERE "id" = ${suiteRunId}`;
      if (!active[0] || !ACTIVE.includes(active[0].status)) return { stored: false, reason: 'suite-not-active' } as const;
      for (const statement of insertAll(txDb, tables)) await statement;
      return { stored: true, runId } as const;
    });
  } catch (err) {
    if (isUniqueViolation(err)) return { stored: false, reason: 'already-stored' };
    throw err;
  }
}

interface DirectCase {
  suiteRunId: string;
  runId: string;
  statements: Array<{ sql: string; values: unknown[] }>;
}

interface PendingCase extends DirectCase {
  resolve: (outcome: StoreCaseOutcome) => void;
  reject: (err: unknown) => void;
}

/** Cases waiting for their connection's next write, by connection. */
const pendingWrites = new WeakMap<SqliteConnection, PendingCase[]>();

/**
 * Stores a case on SQLite's synchronous connection. Cases arriving in the same turn of the event
 * loop (the in-process queue's concurrent cases) are written in one transaction: a commit writes
 * every page it touched (a case touches ~75 pages of a dozen tables and their indexes) and, every
 * thousand pages, checkpoints the WAL with a sync, so one commit per case cost ~2.5 ms of the
 * server's only thread; cases sharing a commit share their pages (issue 36, the first demo).
 * Each case keeps its own outcome: inside the transaction it is its own savepoint, so a case stored
 * before is not stored again while the others are. A batch that fails otherwise is written again
 * one case a transaction, so one case's failure is never its neighbours'.
 */
function storeDirect(conn: SqliteConnection, item: DirectCase): Promise<StoreCaseOutcome> {
  return new Promise((resolve, reject) => {
    let pending = pendingWrites.get(conn);
    if (!pending) {
      pendingWrites.set(conn, (pending = []));
      setImmediate(() => void flushDirect(conn));
    }
    pending.push({ ...item, resolve, reject });
  });
}

async function flushDirect(conn: SqliteConnection): Promise<void> {
  const batch = pendingWrites.get(conn) ?? [];
  pendingWrites.delete(conn);
  const write = (cases: PendingCase[]) => writeTransaction(conn, () => cases.map((c) => storeOneDirect(conn, c)));
  try {
    const outcomes = await write(batch);
    batch.forEach((c, i) => c.resolve(outcomes[i]!));
  } catch (err) {
    if (batch.length === 1) return batch[0]!.reject(err);
    for (const c of batch) await write([c]).then(([outcome]) => c.resolve(outcome!), c.reject);
  }
}

/** One case inside the batch's transaction, as its own savepoint (better-sqlite3 nests a transaction as one). */
function storeOneDirect(conn: SqliteConnection, c: DirectCase): StoreCaseOutcome {
  const active = prepared(conn, 'SELECT "status" FROM "SuiteRun" WHERE "id" = ?').get(c.suiteRunId) as { status: string } | undefined;
  if (!active || !ACTIVE.includes(active.status)) return { stored: false, reason: 'suite-not-active' };
  try {
    conn.transaction(() => {
      for (const s of c.statements) prepared(conn, s.sql).run(s.values);
    })();
  } catch (err) {
    if (isUniqueViolation(err)) return { stored: false, reason: 'already-stored' };
    throw err;
  }
  return { stored: true, runId: c.runId };
}

/** What a worker reads before running a suite's case (see suiteForCase). */
export interface SuiteForCase {
  status: string;
  config: string;
  datasetHash: string;
  goldenSha256: string | null;
  createdBy: string | null;
  tenant: string;
  /** The case is stored already (another worker, or an earlier attempt of this job). */
  caseStored: boolean;
}

/**
 * The suite a case belongs to (null when it is gone) and whether the case is stored, in one raw
 * query: a worker asks this before every case (on PostgreSQL's pool, pg-direct.ts: a Prisma model
 * query costs twice a raw one, and a raw one through Prisma several times one on the pool).
 */
export async function suiteForCase(suiteRunId: string, setting: string, caseId: string, db: Database = getDb(), epoch = 0): Promise<SuiteForCase | null> {
  const rows = db.direct
    ? // SQLite: the same query on the synchronous connection (sqlite-direct.ts), a tenth of the CPU.
      [prepared(db.direct(), SUITE_FOR_CASE_SQLITE).get(setting, caseId, epoch, suiteRunId) as (Omit<SuiteForCase, 'caseStored'> & { caseStored: unknown }) | undefined].filter((r) => r !== undefined)
    : await rawRows<Omit<SuiteForCase, 'caseStored'> & { caseStored: unknown }>(
        db,
        Sql.sql`SELECT s."status", s."config", s."datasetHash", s."goldenSha256", s."createdBy", s."tenant",
          EXISTS (SELECT 1 FROM "SuiteCase" c WHERE c."suiteRunId" = s."id" AND c."setting" = ${setting} AND c."caseId" = ${caseId} AND c."epoch" = ${epoch}) AS "caseStored"
        FROM "SuiteRun" s WHERE s."id" = ${suiteRunId}`,
      );
  const row = rows[0];
  // EXISTS is a boolean on PostgreSQL and 0/1 on SQLite.
  return row ? { ...row, caseStored: Number(row.caseStored) > 0 } : null;
}

const SUITE_FOR_CASE_SQLITE = `SELECT s."status", s."config", s."datasetHash", s."goldenSha256", s."createdBy", s."tenant",
  EXISTS (SELECT 1 FROM "SuiteCase" c WHERE c."suiteRunId" = s."id" AND c."setting" = ? AND c."caseId" = ? AND c."epoch" = ?) AS "caseStored"
  FROM "SuiteRun" s WHERE s."id" = ?`;

/** The suite's status, or null when it is gone (polled while cases run: one raw query). */
export async function suiteStatus(suiteRunId: string, db: Database = getDb()): Promise<string | null> {
  const rows = await rawRows<{ status: string }>(db, Sql.sql`SELECT "status" FROM "SuiteRun" WHERE "id" = ${suiteRunId}`);
  return rows[0]?.status ?? null;
}

/** The suite's stored configuration (parsed JSON), or null when it is gone. */
export async function suiteConfig(suiteRunId: string, db: Database = getDb()): Promise<unknown> {
  const suite = await db.prisma.suiteRun.findUnique({ where: { id: suiteRunId }, select: { config: true } });
  return suite ? json(suite.config, 'suite config') : null;
}

/** The key of a (setting, case) in pastCaseDurations' answer. */
export const caseKey = (setting: string, caseId: string) => `${setting}\u0000${caseId}`;

/** The key of a (setting, case, epoch) in storedCaseKeys' answer. */
export const caseEpochKey = (setting: string, caseId: string, epoch: number) => `${caseKey(setting, caseId)}\u0000${epoch}`;

/** The model id runs of a suite's configuration are stored under (the fake model reports its own id). */
function suiteModelId(config: unknown): string {
  const model = config && typeof config === 'object' && typeof (config as { model?: unknown }).model === 'string' ? (config as { model: string }).model : FAKE_MODEL;
  return model === FAKE_MODEL ? FAKE_MODEL_ID : model === NOISY_FAKE_MODEL ? NOISY_FAKE_MODEL_ID : model;
}

/**
 * How long each (setting, case) of a suite took before: the mean duration of the stored runs of
 * the same tenant, dataset, model, setting and case, by caseKey; absent when never run. A
 * scheduling hint only (a suite starts its longest cases first, so its workers finish together).
 */
export async function pastCaseDurations(
  input: { suiteRunId: string; settings: readonly string[]; caseIds: readonly string[] },
  db: Database = getDb(),
): Promise<Map<string, number>> {
  const suite = await db.prisma.suiteRun.findUnique({ where: { id: input.suiteRunId }, select: { tenant: true, datasetHash: true, config: true } });
  if (!suite || input.settings.length === 0 || input.caseIds.length === 0) return new Map();
  const rows = await db.prisma.run.groupBy({
    by: ['setting', 'caseId'],
    where: {
      tenant: suite.tenant,
      datasetHash: suite.datasetHash,
      modelId: suiteModelId(json(suite.config, 'suite config')),
      setting: { in: [...input.settings] },
      caseId: { in: [...input.caseIds] },
    },
    _avg: { durationMs: true },
  });
  return new Map(rows.flatMap((r) => (r.caseId !== null && r._avg.durationMs !== null ? [[caseKey(r.setting, r.caseId), r._avg.durationMs] as const] : [])));
}

/** Moves a queued suite to running and starts its clock (once; later calls change nothing). */
export async function markSuiteStarted(suiteRunId: string, db: Database = getDb()): Promise<void> {
  await db.prisma.suiteRun.updateMany({ where: { id: suiteRunId, status: 'queued' }, data: { status: 'running' } });
  await db.prisma.suiteRun.updateMany({ where: { id: suiteRunId, startedAt: null }, data: { startedAt: new Date() } });
}

/**
 * Writes each setting's aggregate (SuiteSetting) from the suite's stored cases. The SuiteCase rows
 * are the record and are left as they are (rewriting them raced a worker finishing the same suite:
 * two deletes then two inserts of the same (suite, setting, case)). Called inside the transaction
 * that moves the suite out of queued/running, so it runs once per suite.
 */
async function writeSettingsFromStoredCases(suiteRunId: string, tx: Database['prisma']): Promise<void> {
  const cases = await tx.suiteCase.findMany({ where: { suiteRunId }, orderBy: [{ setting: 'asc' }, { caseId: 'asc' }, { epoch: 'asc' }] });
  const bySetting = new Map<string, typeof cases>();
  for (const c of cases) bySetting.set(c.setting, [...(bySetting.get(c.setting) ?? []), c]);
  await tx.suiteSetting.deleteMany({ where: { suiteRunId } });
  const reportedAt = new Date();
  const rows = [...bySetting].map(([setting, list]) => {
    const agg = aggregate(list.map((r) => CaseScoresSchema.parse(json(r.scores, 'case scores'))));
    return { suiteRunId, setting, metrics: JSON.stringify(agg.metrics), byCategory: JSON.stringify(agg.byCategory), reportedAt };
  });
  if (rows.length > 0) await tx.suiteSetting.createMany({ data: rows });
}

/**
 * Moves an active suite to a final status and writes its settings in one transaction. The status
 * update is the claim: on PostgreSQL a second worker finishing the same suite waits on the row
 * lock, then finds it no longer active and writes nothing (SQLite serialises the writers).
 */
async function closeSuite(suiteRunId: string, data: { status: 'done' | 'cancelled'; completed?: number; error?: string }, db: Database): Promise<boolean> {
  return db.prisma.$transaction(async (tx) => {
    const { count } = await tx.suiteRun.updateMany({ where: { id: suiteRunId, status: { in: ACTIVE } }, data: { ...data, finishedAt: new Date() } });
    if (count === 0) return false;
    await writeSettingsFromStoredCases(suiteRunId, tx as unknown as Database['prisma']);
    if (data.completed === undefined) {
      await tx.suiteRun.update({ where: { id: suiteRunId }, data: { completed: await tx.suiteCase.count({ where: { suiteRunId } }) } });
    }
    return true;
  });
}

const SUITE_COUNTS_SQLITE = `SELECT s."total", s."status", (SELECT COUNT(*) FROM "SuiteCase" c WHERE c."suiteRunId" = s."id") AS "stored" FROM "SuiteRun" s WHERE s."id" = ?`;

/**
 * Finishes the suite when every case is stored: settings written, status done. Safe to call from
 * any worker any number of times, at once (only the first that sees it complete moves it). Under a
 * job's lease (a PostgreSQL worker, after it stored its case) the same statement reads whether the
 * job is still held, the check a worker makes before it completes the job (lib/jobs/graphile.ts),
 * without a round trip of its own: false under a lease means the job was still held when the cases
 * were counted, and a job released meanwhile throws JobLeaseLostError. True (it finished the suite,
 * whoever holds the job now) says nothing of the lease.
 */
export async function finishSuiteIfComplete(suiteRunId: string, db: Database = getDb(), lease?: JobLease): Promise<boolean> {
  // Asked after every stored case: one raw query for the status and both counts (on SQLite's synchronous connection there).
  const [suite] = db.direct
    ? [prepared(db.direct(), SUITE_COUNTS_SQLITE).get(suiteRunId) as { total: unknown; status: string | null; stored: unknown; locked_by?: string | null; held?: boolean | null } | undefined].filter((r) => r !== undefined)
    : await rawRows<{ total: unknown; status: string | null; stored: unknown; locked_by?: string | null; held?: boolean | null }>(
        db,
        Sql.sql`SELECT s."total", s."status", (SELECT COUNT(*) FROM "SuiteCase" c WHERE c."suiteRunId" = s."id") AS "stored"${lease ? Sql.sql`, l."locked_by", l."held"` : Sql.empty}
        FROM (SELECT 1) AS one LEFT JOIN "SuiteRun" s ON s."id" = ${suiteRunId}${lease ? Sql.sql` LEFT JOIN (${leaseStateSql(lease)}) l ON TRUE` : Sql.empty}`,
      );
  const stored = Number(suite?.stored);
  if (suite?.status && ACTIVE.includes(suite.status) && stored >= Number(suite.total)) {
    const closed = await closeSuite(suiteRunId, { status: 'done', completed: stored }, db);
    // Another worker closed it first: false is answered, as always, once the lease was read again (the
    // read above is older than the close's wait); the suite is no longer active, so that is all it does.
    return closed || !lease ? closed : finishSuiteIfComplete(suiteRunId, db, lease);
  }
  if (lease && suite?.held !== true) throw new JobLeaseLostError(lease, suite?.locked_by ?? null);
  return false;
}

/** What a suite's cancel did. */
export type CancelOutcome = 'cancelled' | 'already-finished';

/**
 * Cancels a queued or running suite: status cancelled at once (workers stop its cases within
 * seconds), and the cases stored so far become its partial result, marked cancelled.
 */
export async function cancelSuiteRun(suiteRunId: string, db: Database = getDb()): Promise<CancelOutcome> {
  const exists = await db.prisma.suiteRun.findUnique({ where: { id: suiteRunId }, select: { id: true } });
  if (!exists) throw new NotFoundError('suite run', suiteRunId);
  const closed = await closeSuite(suiteRunId, { status: 'cancelled', error: 'cancelled: the partial result holds the cases stored before the cancel' }, db);
  return closed ? 'cancelled' : 'already-finished';
}

/** Suites a worker should still be working on (queued or running), oldest first. */
export async function unfinishedSuiteIds(db: Database = getDb()): Promise<string[]> {
  const rows = await db.prisma.suiteRun.findMany({ where: { status: { in: ACTIVE } }, select: { id: true }, orderBy: { createdAt: 'asc' } });
  return rows.map((r) => r.id);
}

/** The (setting, case, epoch) triples of a suite already stored, by caseEpochKey. */
export async function storedCaseKeys(suiteRunId: string, db: Database = getDb()): Promise<Set<string>> {
  const rows = await db.prisma.suiteCase.findMany({ where: { suiteRunId }, select: { setting: true, caseId: true, epoch: true } });
  return new Set(rows.map((r) => caseEpochKey(r.setting, r.caseId, r.epoch)));
}

/** Progress of a suite counted from its stored cases, with an estimate of the time left. */
export interface SuiteProgressDto {
  total: number;
  /** Cases whose run is stored. */
  stored: number;
  status: string;
  /** Milliseconds left at the rate cases have been stored since the suite started; null before the first case or when finished. */
  etaMs: number | null;
  /** Stored cases per second since the suite started (null before the first). */
  ratePerSecond: number | null;
  /** Who works on it: this process (embedded SQLite), or the workers seen alive on PostgreSQL. */
  workers: WorkerPresence;
}

/** Pure: the estimate from a count, a total and the time since the start. */
export function estimateProgress(total: number, stored: number, startedAt: Date | null, now: Date, active: boolean): Pick<SuiteProgressDto, 'etaMs' | 'ratePerSecond'> {
  if (!startedAt || stored === 0) return { etaMs: null, ratePerSecond: null };
  const elapsed = Math.max(1, now.getTime() - startedAt.getTime());
  const rate = stored / (elapsed / 1000);
  return { ratePerSecond: rate, etaMs: active ? Math.round(((total - stored) / rate) * 1000) : null };
}

/** Stored-case counts for suites (one grouped query). */
export async function storedCounts(suiteRunIds: readonly string[], db: Database = getDb()): Promise<Map<string, number>> {
  if (suiteRunIds.length === 0) return new Map();
  const rows = await db.prisma.suiteCase.groupBy({ by: ['suiteRunId'], where: { suiteRunId: { in: [...suiteRunIds] } }, _count: { _all: true } });
  return new Map(rows.map((r) => [r.suiteRunId, r._count._all]));
}

/**
 * The workers that can take a suite's jobs: on PostgreSQL the web server only enqueues, and a worker
 * is alive while its heartbeat is younger than its lease (see lib/format/workers.ts for what is shown).
 */
export async function workerPresence(db: Database = getDb(), now: Date = new Date()): Promise<WorkerPresence> {
  if (db.provider !== 'postgres') return { backend: 'in-process' };
  const alive = await db.prisma.workerHeartbeat.findMany({ where: { lastSeen: { gte: new Date(now.getTime() - WORKER_LEASE_MS) } }, select: { concurrency: true, slots: true } });
  // A row from before slots were recorded counts its configured concurrency.
  return { backend: 'workers', online: alive.length, slots: alive.reduce((n, w) => n + (w.slots ?? w.concurrency), 0) };
}

export async function getSuiteProgress(suiteRunId: string, db: Database = getDb(), now: Date = new Date()): Promise<SuiteProgressDto> {
  const suite = await db.prisma.suiteRun.findUnique({ where: { id: suiteRunId }, select: { total: true, status: true, startedAt: true } });
  if (!suite) throw new NotFoundError('suite run', suiteRunId);
  const stored = await db.prisma.suiteCase.count({ where: { suiteRunId } });
  const workers = await workerPresence(db, now);
  return { total: suite.total, stored, status: suite.status, ...estimateProgress(suite.total, stored, suite.startedAt, now, ACTIVE.includes(suite.status)), workers };
}
