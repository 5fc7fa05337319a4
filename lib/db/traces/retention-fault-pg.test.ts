/**
 * The retention sweep (issue 33) when PostgreSQL cuts its connection half-way: the sweep has removed
 * one class's runs (committed with their tombstone) and is inside the next batch — runs deleted,
 * tombstone not yet written — when its backend is terminated (pg_terminate_backend, as a restart or a
 * failover does to every connection). The batch rolls back whole; the next sweep, on the same
 * connection pool, finishes by itself. Nothing is lost (every old run gone, every other run kept),
 * nothing is counted twice (each removed run in exactly one tombstone), and `audit verify` is intact.
 *
 * To be inside the batch when the cut comes, not before or after it, a second session holds a row lock
 * on one of the imported runs: the batch that deletes it waits on that lock, and the backend found
 * waiting is the one terminated.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evidenceBody } from '../../governance/evidence';
import { currentPolicy } from '../../governance/current-policy';
import { openDatabase, PG_POOL_SIZE, type Database } from '../core/client';
import { listEvidence, PrismaEvidenceSink, verifyStoredChain } from '../governance/governance-evidence';
import { sweepRetention } from './retention';
import { saveRun } from '../runs/runs-write';
import { makeMeta, makeRun } from '../testing/run-fixtures';
import { testProviders, type TestDatabase } from '../testing/test-databases';

const postgres = (await testProviders()).find((p) => p.name === 'postgres')!;
const NOW = new Date('2026-06-01T00:00:00Z');
const daysAgo = (d: number) => new Date(NOW.getTime() - d * 86_400_000).toISOString();

const policyDir = fs.mkdtempSync(path.join(os.tmpdir(), 'stockroom-retention-fault-'));
const policyFile = path.join(policyDir, 'policy.json');
fs.writeFileSync(policyFile, JSON.stringify({ schemaVersion: 1, approvalTtlSeconds: 60, tenants: { gannet: { retention: { runs: { harness: 30, imported: 30 } } } }, tools: {} }));
const previous = process.env.STOCKROOM_POLICY_FILE;

/** The backend of database `name` waiting on a lock (the retention's, held up by the test's row lock). */
async function waitingBackend(client: pg.Client, name: string): Promise<number> {
  for (let i = 0; i < 400; i++) {
    const { rows } = await client.query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE datname = $1 AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()`, [name]);
    if (rows[0]) return rows[0].pid;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('the retention never reached the locked run');
}

/** The backend of database `name` running the test's pg_sleep. */
async function sleepingBackend(client: pg.Client, name: string): Promise<number> {
  for (let i = 0; i < 400; i++) {
    const { rows } = await client.query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE datname = $1 AND query LIKE '%pg_sleep(30)%' AND pid <> pg_backend_pid()`, [name]);
    if (rows[0]) return rows[0].pid;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('the transaction never started');
}

/** `work`'s value, or a rejection naming the wait when it takes longer than `ms` (a hang fails the test, not its hook). */
function within<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`still waiting after ${ms} ms`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

describe.skipIf(postgres.skipReason !== null)('retention when PostgreSQL terminates its connection mid-sweep', { timeout: 120_000 }, () => {
  let t: TestDatabase;
  let db: Database;
  beforeAll(async () => {
    process.env.STOCKROOM_POLICY_FILE = policyFile;
    t = await postgres.create();
    db = t.db;
  });
  afterAll(async () => {
    if (previous === undefined) delete process.env.STOCKROOM_POLICY_FILE;
    else process.env.STOCKROOM_POLICY_FILE = previous;
    await t?.drop();
    fs.rmSync(policyDir, { recursive: true, force: true });
  });

  const save = (startedDaysAgo: number, source: 'harness' | 'imported') => saveRun({ ...makeRun({ rounds: 1 }), startedAt: daysAgo(startedDaysAgo) }, makeMeta({ tenant: 'gannet', source }), db);

  it('the next sweep finishes the batch the cut rolled back: nothing lost, nothing counted twice, audit verify intact', async () => {
    const harness = [await save(40, 'harness'), await save(50, 'harness'), await save(60, 'harness')];
    const imported = [await save(40, 'imported'), await save(50, 'imported'), await save(60, 'imported')];
    const recent = [await save(3, 'harness'), await save(3, 'imported')];
    // A run with evidence of its own: its chain's head is what its tombstone records.
    await new PrismaEvidenceSink(db.prisma).append(evidenceBody({ kind: 'policy_decision', at: daysAgo(40), runId: imported[0]!, decision: 'allow' }));
    const version = currentPolicy().version;

    const locker = new pg.Client({ connectionString: t.url });
    await locker.connect();
    let sweep: Promise<unknown>;
    try {
      await locker.query('BEGIN');
      await locker.query('SELECT 1 FROM "Run" WHERE "id" = $1 FOR UPDATE', [imported[1]]);
      sweep = sweepRetention(NOW, db);
      sweep.catch(() => undefined);
      const pid = await waitingBackend(locker, new URL(t.url).pathname.slice(1));
      const { rows } = await locker.query<{ ok: boolean }>('SELECT pg_terminate_backend($1) AS ok', [pid]);
      expect(rows[0]!.ok).toBe(true);
      await expect(sweep).rejects.toThrow();
    } finally {
      await locker.query('ROLLBACK').catch(() => undefined);
      await locker.end();
    }

    // The harness runs' batch had committed with its tombstone; the imported runs' batch rolled back whole.
    const left = async () => (await db.prisma.run.findMany({ select: { id: true } })).map((r) => r.id).sort();
    expect(await left()).toEqual([...imported, ...recent].sort());
    const tombstones = async () => (await listEvidence(db.prisma)).filter((e) => e.body.kind === 'retention');
    expect((await tombstones()).map((e) => e.body.removed!.map((r) => r.runId).sort())).toEqual([[...harness].sort()]);
    expect(await verifyStoredChain(db.prisma)).toMatchObject({ ok: true, removedByRetention: { [version]: 3 } });

    // The next sweep, on the same pool, finishes by itself.
    const next = await sweepRetention(NOW, db);
    expect(next).toMatchObject({ complete: true });
    expect(await left()).toEqual([...recent].sort());
    const removed = (await tombstones()).flatMap((e) => e.body.removed!.map((r) => r.runId));
    expect(removed.sort()).toEqual([...harness, ...imported].sort());
    expect(new Set(removed).size).toBe(removed.length);
    const chainHead = (await db.prisma.evidenceChain.findUniqueOrThrow({ where: { chain: imported[0]! } })).hash;
    expect((await tombstones()).flatMap((e) => e.body.removed!)).toContainEqual({ runId: imported[0], chainHead });
    expect(await verifyStoredChain(db.prisma)).toMatchObject({ ok: true, removedByRetention: { [version]: 6 } });
    // And a third sweep finds nothing more to do, writing no tombstone.
    await sweepRetention(NOW, db);
    expect(await tombstones()).toHaveLength(2);
  });

  it('a transaction PostgreSQL cut gives its connection back: PG_POOL_SIZE cuts later the pool still answers, and closes', async () => {
    // Observed before the fix: Prisma ends a transaction with ROLLBACK before releasing its connection;
    // on a terminated backend the ROLLBACK fails, the connection stays checked out for good, and after
    // PG_POOL_SIZE such cuts every query waits forever (and closing the pool hangs).
    const own = openDatabase(t.url);
    const admin = new pg.Client({ connectionString: t.url });
    await admin.connect();
    try {
      for (let i = 0; i < PG_POOL_SIZE + 1; i++) {
        const cut = own.prisma.$transaction(async (tx) => tx.$queryRaw`SELECT pg_sleep(30)`, { timeout: 60_000 });
        cut.catch(() => undefined);
        const pid = await sleepingBackend(admin, new URL(t.url).pathname.slice(1));
        await admin.query('SELECT pg_terminate_backend($1)', [pid]);
        await expect(cut).rejects.toThrow();
      }
      expect(await within(own.prisma.$queryRaw`SELECT 1 AS one`, 10_000)).toEqual([{ one: 1 }]);
    } finally {
      await admin.end();
    }
    expect(await within(own.close().then(() => 'closed'), 10_000)).toBe('closed');
  });
});
