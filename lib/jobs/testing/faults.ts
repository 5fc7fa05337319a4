/**
 * What the database fault suite (db-faults-pg.test.ts) and its bench section share: a throwaway
 * cluster with a migrated database, a suite queued on it, and the checks of a finished suite
 * (every case stored, none twice, no job left behind).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { migrate } from '../../../scripts/db-migrate.mjs';
import { openDatabase, type Database } from '../../db/core';
import type { GoldenFile } from '../../eval';
import type { ModelServer } from '../../models';
import { queueSuite } from '../../runs/suites';
import type { Dataset } from '../../stockroom';
import { GRAPHILE_SCHEMA, GraphileQueue } from '../graphile';
import { runQueueOf } from '../queue';
import { startPgCluster, type PgCluster } from '../../db/testing/pg-cluster';
import { bundledDataset, goldenSubset, liveConfig } from './suite-fixtures';

export const faultOwner = { createdBy: 'user-fault-test', tenant: 'kittiwake' };

export interface FaultRig {
  cluster: PgCluster;
  url: string;
  db: Database;
  queue: GraphileQueue;
  dataset: Dataset;
  dir: string;
  golden(cases: number): GoldenFile;
  queueEval(golden: GoldenFile, server: ModelServer): Promise<{ suiteRunId: string; total: number }>;
  statusOf(suiteRunId: string): Promise<string>;
  /** Stored runs of the suite as `setting/case`, one entry per stored row. */
  storedRows(suiteRunId: string): Promise<string[]>;
  /** The suite's case jobs locked by a worker right now. */
  lockedJobs(suiteRunId: string): Promise<number>;
  /** Jobs of suites left in the queue (queued, running or failed for good). */
  jobsLeft(): Promise<Array<{ key: string | null; attempts: number; max_attempts: number; locked_by: string | null; last_error: string | null }>>;
  close(): Promise<void>;
}

/** A throwaway cluster (listening on `extraListen` too), a migrated database on it, the bundled dataset. */
export async function startFaultRig(options: { extraListen?: string[] } = {}): Promise<FaultRig> {
  const cluster = await startPgCluster(options);
  const admin = new pg.Client({ connectionString: cluster.url() });
  await admin.connect();
  await admin.query('CREATE DATABASE stockroom');
  await admin.end();
  const url = cluster.url('stockroom');
  await migrate({ url });
  const db = openDatabase(url);
  const queue = new GraphileQueue(url);
  const dataset = bundledDataset();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stockroom-faults-'));
  let n = 0;
  const count = (sql: string, values: unknown[]) => queue.withClient(async (c) => Number((await c.query<{ n: string }>(sql, values)).rows[0]!.n));
  return {
    cluster,
    url,
    db,
    queue,
    dataset,
    dir,
    golden: (cases) => goldenSubset(dataset, cases, path.join(dir, String((n += 1)))),
    queueEval: (golden, server) => queueSuite({ kind: 'eval', dataset, golden, config: liveConfig(server.url), settings: ['none'], owner: faultOwner }, runQueueOf(queue), db),
    statusOf: async (id) => (await db.prisma.suiteRun.findUniqueOrThrow({ where: { id } })).status,
    storedRows: async (suiteRunId) => (await db.prisma.run.findMany({ where: { suiteRunId }, select: { setting: true, caseId: true } })).map((r) => `${r.setting}/${r.caseId}`),
    lockedJobs: (suiteRunId) => count(`SELECT count(*)::text AS n FROM ${GRAPHILE_SCHEMA}.jobs WHERE locked_by IS NOT NULL AND key LIKE $1`, [`suite-case:${suiteRunId}:%`]),
    jobsLeft: () => queue.withClient(async (c) => (await c.query(`SELECT key, attempts, max_attempts, locked_by, last_error FROM ${GRAPHILE_SCHEMA}.jobs WHERE task_identifier IN ('suite', 'suite-case')`)).rows),
    async close() {
      await queue.close().catch(() => undefined);
      await db.close().catch(() => undefined);
      await cluster.destroy();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Polls `probe` every 100 ms until `done`, or throws naming what it waited for after `limitMs` (a bound, not a timing assertion). */
export async function waitFor<T>(what: string, probe: () => Promise<T>, done: (v: T) => boolean, limitMs = 120_000): Promise<T> {
  const until = Date.now() + limitMs;
  for (;;) {
    let v: T | undefined;
    try {
      v = await probe();
      if (done(v)) return v;
    } catch {
      // the database may be away in the middle of a fault: ask again
    }
    if (Date.now() > until) throw new Error(`gave up waiting for ${what} (last: ${JSON.stringify(v)})`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
