/**
 * Approval fault drills on PostgreSQL with real worker processes (the fault suite and `npm run bench
 * -- --only approvals`): a throwaway cluster of their own (so a restart touches nobody else), the run
 * service as the web server uses it (a governed run of case S024 paused for approval, a reviewer's
 * decision that enqueues the resume), and instructor mode's worker-kill drill to kill -9 the worker
 * at a chosen step of the approved write. `settled` lists what is wrong with a run once it finished.
 */
import { migrate } from '../../../scripts/db-migrate.mjs';
import { startPgCluster, type PgCluster } from '../../db/testing/pg-cluster';
import type { JournalStep } from '../../governance';
import { spawnWorker, type WorkerProcess } from './worker-processes';

export interface Drill {
  url: string;
  cluster: PgCluster;
  users: { operator: string; reviewer: string; reviewer2: string };
  workers: WorkerProcess[];
  close(): Promise<void>;
}

const TENANT = 'kittiwake';

/** A throwaway cluster with a migrated database this process's data layer points at, and three users. */
export async function setUpDrill(): Promise<Drill> {
  const cluster = await startPgCluster();
  const { Client } = await import('pg');
  const admin = new Client({ connectionString: cluster.url() });
  await admin.connect();
  await admin.query('CREATE DATABASE stockroom_drills');
  await admin.end();
  const url = cluster.url('stockroom_drills');
  process.env.DATABASE_URL = url;
  process.env.BETTER_AUTH_SECRET ??= 'drill-secret-0123456789abcdef0123456789abcdef';
  await migrate({ url });
  const { getDb } = await import('../../db/core');
  const { upsertUser } = await import('../../auth/users');
  const db = getDb();
  const user = (email: string, roles: ('operator' | 'reviewer')[]) => upsertUser(db, { email, password: 'correct horse battery staple', roles, tenant: TENANT });
  const users = { operator: await user('operator@drill.test', ['operator']), reviewer: await user('reviewer@drill.test', ['reviewer']), reviewer2: await user('reviewer2@drill.test', ['reviewer']) };
  const workers: WorkerProcess[] = [];
  return {
    url,
    cluster,
    users,
    workers,
    async close() {
      await Promise.all(workers.map((w) => w.stop().catch(() => undefined)));
      const { closeJobQueue } = await import('../queue');
      await closeJobQueue().catch(() => undefined);
      await db.close().catch(() => undefined);
      await cluster.destroy();
    },
  };
}

const alive = (w: WorkerProcess) => w.proc.exitCode === null && w.proc.signalCode === null;

/** Starts workers (at once) until `n` are running (those killed by a drill are replaced). */
export async function keepWorkers(d: Drill, n: number): Promise<WorkerProcess[]> {
  const missing = n - d.workers.filter(alive).length;
  if (missing > 0) d.workers.push(...(await Promise.all(Array.from({ length: missing }, () => spawnWorker({ databaseUrl: d.url, concurrency: 2 })))));
  return d.workers.filter(alive);
}

/** An operator's governed run of S024 (750 units, above the auto-approve limit), paused for approval. */
export async function pausedRun(d: Drill): Promise<{ runId: string; approvalId: string }> {
  const { startGovernedOne } = await import('../../runs/governed-start');
  const { RunOneInputSchema } = await import('../../schemas/run-settings');
  const out = await startGovernedOne(RunOneInputSchema.parse({ datasetId: 'bundled', caseId: 'S024' }), { id: d.users.operator, tenant: TENANT });
  if (!out.approvalId) throw new Error(`the governed run did not pause: ${JSON.stringify(out)}`);
  return { runId: out.runId, approvalId: out.approvalId };
}

/** Arms instructor mode's worker-kill drill: the worker that runs the tenant's next governed write dies after `step`. */
export async function armKill(step: JournalStep): Promise<void> {
  const { armFault } = await import('../../db/core');
  await armFault(TENANT, `worker_kill_${step}`, 'approval-drill');
}

/** A reviewer's decision through the run service, as the decide action makes it (the resume is enqueued). */
export async function decide(approvalId: string, reviewerId: string, verdict: 'approve' | 'deny' = 'approve') {
  const { getDb } = await import('../../db/core');
  const { getApprovalOrThrow } = await import('../../db/governance');
  const { getIdentity } = await import('../../db/governance');
  const { decideAndResume } = await import('../../runs/governed-decision');
  const { getRunQueue } = await import('../queue');
  const prisma = getDb().prisma;
  const req = await getApprovalOrThrow(prisma, approvalId);
  const who = (await getIdentity(prisma, reviewerId))!;
  return decideAndResume(req, { verdict, reason: `drill: ${verdict}`, reviewer: { id: who.id, memberships: [...who.memberships] } }, getRunQueue());
}

/**
 * Where a run that did not finish is stuck, for a drill's failure message: its status and owner, its
 * resume jobs (who locks them, attempts, last error), the workers' heartbeats (age by the database's
 * clock) and the journal. Names a resume job locked by a pool no live heartbeat names: nothing but
 * the 5-minute sweep would move that run.
 */
export async function describeRun(runId: string): Promise<string> {
  const { getDb } = await import('../../db/core');
  const prisma = getDb().prisma;
  const lines: string[] = [];
  try {
    const run = await prisma.governedRun.findUnique({ where: { runId }, select: { status: true, owner: true, updatedAt: true, takenOverAt: true } });
    lines.push(`governed run: ${run ? `${run.status}, owner ${run.owner ?? 'none'}, updated ${run.updatedAt.toISOString()}, taken over ${run.takenOverAt?.toISOString() ?? 'never'}` : 'missing'}`);
    // Finished as a governed run but not as a stored run: its storing failed and nothing repaired it.
    const stored = await prisma.run.findUnique({ where: { id: runId }, select: { status: true } });
    lines.push(`stored run: ${stored?.status ?? 'missing'}`);
    const jobs = await prisma.$queryRawUnsafe<{ id: string; locked_by: string | null; attempts: number; max_attempts: number; last_error: string | null; run_at: Date }[]>(
      `SELECT j.id::text AS id, j.locked_by, j.attempts, j.max_attempts, j.last_error, j.run_at
         FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks t ON t.id = j.task_id
        WHERE t.identifier = 'governed-resume' AND j.payload->>'runId' = $1`,
      runId,
    );
    const beats = await prisma.$queryRawUnsafe<{ id: string; worker_ids: string; age_ms: number }[]>(
      `SELECT id, "workerIds" AS worker_ids, (EXTRACT(EPOCH FROM ((now() AT TIME ZONE 'UTC') - "lastSeen")) * 1000)::float8 AS age_ms FROM "WorkerHeartbeat"`,
    );
    const named = new Set(beats.flatMap((b) => JSON.parse(b.worker_ids) as string[]));
    if (jobs.length === 0) lines.push('resume jobs: none (finished, or never enqueued)');
    for (const j of jobs) {
      const orphan = j.locked_by !== null && !named.has(j.locked_by) ? ' — locked by a pool no heartbeat names: no worker will release it' : '';
      lines.push(`resume job ${j.id}: ${j.locked_by ? `locked by ${j.locked_by}` : `free, due ${j.run_at.toISOString()}`}, attempt ${j.attempts}/${j.max_attempts}${j.last_error ? `, last error: ${j.last_error.slice(0, 300)}` : ''}${orphan}`);
    }
    for (const b of beats) lines.push(`heartbeat ${b.id}: ${Math.round(Number(b.age_ms))} ms ago, ids ${b.worker_ids}`);
    const journal = await prisma.effectJournalEntry.findMany({ where: { runId }, select: { operationKey: true, status: true } });
    lines.push(`journal: ${journal.map((e) => `${e.operationKey} ${e.status}`).join('; ') || 'none'}`);
  } catch (err) {
    lines.push(`(the database could not be read: ${err instanceof Error ? err.message : String(err)})`);
  }
  return lines.join('\n');
}

/**
 * Waits until the run is finished (governed run and stored run); returns when (ms since the epoch), or
 * throws after `limitMs` with where the run is stuck (describeRun) and `describe()` (the workers' output).
 */
export async function finished(runId: string, limitMs: number, describe: () => string = () => ''): Promise<number> {
  const { getDb } = await import('../../db/core');
  const until = Date.now() + limitMs;
  for (;;) {
    const prisma = getDb().prisma;
    // Finished as its pages show it: the governed run and its stored run (written just after), and no
    // repair left to do (a finish whose last writes were lost carries a mark until they are made good).
    const [run, stored] = await Promise.all([
      prisma.governedRun.findUnique({ where: { runId }, select: { status: true, lastError: true } }),
      prisma.run.findUnique({ where: { id: runId }, select: { status: true } }),
    ]).catch(() => [null, null] as const); // the database may be restarting
    if (run?.status === 'finished' && run.lastError === null && stored?.status === 'finished') return Date.now();
    if (Date.now() > until) throw new Error(`run ${runId} is ${run?.status ?? '(unreadable)'} after ${limitMs} ms\n${await describeRun(runId)}\n${describe()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * What is wrong with a finished run after a drill (empty: nothing): not finished, not stored, more or
 * fewer ledger records than `writes`, a journal entry not settled, the model not told the record it
 * made, the evidence not intact (every chain, and every step of every journal entry).
 */
export async function settled(runId: string, writes: 0 | 1): Promise<string[]> {
  const { getDb } = await import('../../db/core');
  const { verifyStoredChain } = await import('../../db/governance');
  const prisma = getDb().prisma;
  const problems: string[] = [];
  const run = await prisma.governedRun.findUniqueOrThrow({ where: { runId } });
  if (run.status !== 'finished') problems.push(`governed run is ${run.status}`);
  const stored = await prisma.run.findUnique({ where: { id: runId }, select: { status: true } });
  if (stored?.status !== 'finished') problems.push(`stored run is ${stored?.status ?? 'missing'}`);
  const ledger = await prisma.restockLedgerRecord.findMany({ where: { runId } });
  if (ledger.length !== writes) problems.push(`${ledger.length} ledger records, expected ${writes}`);
  const journal = await prisma.effectJournalEntry.findMany({ where: { runId } });
  for (const j of journal) if (!['committed', 'reconciled_committed', 'failed'].includes(j.status)) problems.push(`journal entry ${j.operationKey} is ${j.status}`);
  for (const l of ledger) {
    if (!journal.some((j) => j.operationKey === l.operationKey)) problems.push(`ledger record ${l.requestId} has no journal entry`);
    if (!run.result.includes(`"request_id":"${l.requestId}"`)) problems.push(`the model was not told ${l.requestId}`);
  }
  const verified = await verifyStoredChain(prisma);
  if (!verified.ok) problems.push(`audit verify: ${verified.reason}`);
  return problems;
}
