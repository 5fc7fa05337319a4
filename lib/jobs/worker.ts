/**
 * A job worker (`npm run worker`): runs suite fan-outs, suite cases, governed resumes and sweeps
 * from the PostgreSQL queue, `concurrency` at a time, alongside any number of other workers on any
 * machine that reaches the database. It beats a heartbeat; the jobs of a worker that stops beating
 * are released to the others. SIGTERM/SIGINT stop it gracefully (jobs in flight finish or are
 * released for another worker).
 */
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import type { Runner } from 'graphile-worker';
import { getDb, PG_POOL_SIZE, type Database } from '../db/client';
import { resolveDatabaseUrl } from '../db/database-url';
import { createHandlers, type HandlerDeps } from './handlers';
import { GraphileQueue, startGraphileRunner } from './graphile';
import { startHeartbeat } from './heartbeat';
import { limitedModels, parseProviderLimits, pruneProviderCalls } from './provider-limits';
import { recoverUnfinishedSuites } from './recover';
import { preloadLiveModels } from '../runs/agent';

/** How often a worker enqueues the sweep (keyed, so N workers still sweep once per interval). */
export const SWEEP_INTERVAL_MS = 30_000;
/** Concurrent jobs per worker when STOCKROOM_WORKER_CONCURRENCY is not set. */
export const DEFAULT_WORKER_CONCURRENCY = 4;

export interface RunningWorker {
  id: string;
  stop(): Promise<void>;
}

export interface StartWorkerOptions {
  concurrency: number;
  deps?: HandlerDeps;
  /** A worker silent this long is dead (default WORKER_LEASE_MS). */
  leaseMs?: number;
  /** Heartbeat interval (default HEARTBEAT_MS). */
  heartbeatMs?: number;
}

/**
 * Readies a new worker before it takes jobs, so its first jobs do not all pay at once for what
 * every later job finds ready: the provider SDKs are loaded (about 1 s of module loading that the
 * first live runs would otherwise wait on), Prisma's query compiler is loaded and the data layer's
 * connections are opened (each a new PostgreSQL backend).
 */
async function warmUp(db: Database, concurrency: number): Promise<void> {
  await preloadLiveModels();
  await db.prisma.suiteRun.findFirst({ select: { id: true } });
  const connections = Math.min(concurrency, PG_POOL_SIZE);
  // Held briefly at the same time, so the pool opens that many rather than reusing one.
  await Promise.all(Array.from({ length: connections }, () => db.prisma.$executeRaw`SELECT pg_sleep(0.05)`));
}

export async function startWorker(options: StartWorkerOptions): Promise<RunningWorker> {
  const target = resolveDatabaseUrl(process.env.DATABASE_URL);
  if (target.provider !== 'postgres') {
    throw new Error('npm run worker needs DATABASE_URL=postgres://… (on the embedded SQLite default the server runs jobs itself)');
  }
  const db = getDb();
  const id = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  const queue = new GraphileQueue(target.url);
  const limits = parseProviderLimits(process.env.STOCKROOM_PROVIDER_LIMITS);
  const handlers = createHandlers({ wrapModel: limits.size > 0 ? limitedModels(db, limits, id) : undefined, ...options.deps });
  const workerIds: string[] = [];
  await queue.countJobs(); // migrates graphile-worker's schema before the runner starts
  await warmUp(db, options.concurrency);
  const runner: Runner = await startGraphileRunner({
    connectionString: target.url,
    concurrency: options.concurrency,
    handlers,
    queue,
    onWorkerId: (w) => workerIds.push(w),
  });
  const heartbeat = startHeartbeat({
    db,
    id,
    concurrency: options.concurrency,
    workerIds: () => workerIds,
    release: (ids) => queue.releaseWorkers(ids),
    leaseMs: options.leaseMs,
    intervalMs: options.heartbeatMs,
  });
  // Reconciliation: a suite whose fan-out was lost (its jobs deleted by hand, a queue restored) is enqueued again.
  await recoverUnfinishedSuites(queue, db).catch((err: unknown) => console.error('stockroom worker: recovering unfinished suites failed', err));
  const sweep = () => {
    void queue.enqueue('sweep', {}, { key: 'sweep' }).catch((err: unknown) => console.error('stockroom worker: could not enqueue the sweep', err));
    void pruneProviderCalls(db).catch(() => undefined);
  };
  sweep();
  const sweepTimer = setInterval(sweep, SWEEP_INTERVAL_MS);
  return {
    id,
    async stop() {
      clearInterval(sweepTimer);
      await runner.stop();
      await heartbeat.stop();
      await queue.close();
      await db.close();
    },
  };
}
