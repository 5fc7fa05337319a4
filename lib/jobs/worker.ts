/**
 * A job worker (`npm run worker`): runs suite fan-outs, suite cases, governed resumes and sweeps
 * from the PostgreSQL queue, `concurrency` at a time, alongside any number of other workers on any
 * machine that reaches the database. It beats a heartbeat; the jobs of a worker that stops beating
 * are released to the others. `stop()` is graceful: no new job is taken, the running ones get the
 * grace period to finish, and what is still running then is handed back to the queue (and its
 * handlers aborted) so another worker takes it at once; only then does the heartbeat row go.
 *
 * Surviving the database (issue 32): graphile-worker shuts its pool down by itself when it cannot
 * complete or fail a job (PostgreSQL restarted, the network was cut), and a process whose pool is
 * gone must neither look alive nor stay idle. So the worker watches its pool: once it has stopped,
 * the heartbeat stops (no working slot), and as soon as the database answers the jobs the old pool
 * still held are handed back (attempts not spent) and a new pool starts — in-process, no supervisor
 * needed (restorePool). A job whose connection was lost hands itself back (lib/jobs/graphile.ts).
 */
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import { getDb, PG_POOL_SIZE, type Database } from '../db/core';
import { openHeartbeatStore, WORKER_LEASE_MS } from '../db/core';
import { resolveDatabaseUrl } from '../db/core';
import { createHandlers, type HandlerDeps } from './handlers';
import { GraphileQueue, startGraphileRunner, type GraphileRunner } from './graphile';
import { startHeartbeat } from './heartbeat';
import { parseProviderLimits, providerGates, SlotWaiter } from './provider-limits';
import { recoverUnfinishedSuites } from './recover';
import { isConnectionLost } from './connection-lost';
import { preloadLiveModels } from '../runs/agent';

/** Concurrent jobs per worker when STOCKROOM_WORKER_CONCURRENCY is not set. */
export const DEFAULT_WORKER_CONCURRENCY = 4;
/** How long a stopping worker lets its running jobs finish when STOCKROOM_WORKER_GRACE_MS is not set. */
export const DEFAULT_WORKER_GRACE_MS = 30_000;
/** After the grace period, how long the aborted handlers get to wind down before the pool is shut regardless. */
const ABORT_WAIT_MS = 5_000;
/** How often a worker whose pool stopped tries to start a new one while the database is away. */
const RESTORE_RETRY_MS = 1_000;
/** Once the database answers, how long a pool that shut itself down may take to end before it is ended forcefully. */
const OLD_POOL_WAIT_MS = 3_000;

/** What a graceful stop did. */
export interface StopReport {
  /** Jobs still running when the grace period ended, handed back to the queue. */
  released: number;
}

/** Whether a worker can work, for a liveness probe (STOCKROOM_WORKER_HEALTH_PORT). */
export interface WorkerHealth {
  /** Slots of its pool still taking jobs (0 while a stopped pool waits for the database). */
  slots: number;
  /** Its last heartbeat (ISO), null before the first. */
  lastBeat: string | null;
  /** Working slots and a heartbeat younger than the lease: the others will not release its jobs. */
  alive: boolean;
}

export interface RunningWorker {
  id: string;
  health(): WorkerHealth;
  /** Graceful: no new jobs, running ones finish within the grace period, the rest are handed back. */
  stop(): Promise<StopReport>;
}

export interface StartWorkerOptions {
  concurrency: number;
  deps?: HandlerDeps;
  /** A worker silent this long is dead (default WORKER_LEASE_MS). */
  leaseMs?: number;
  /** Heartbeat interval (default HEARTBEAT_MS). */
  heartbeatMs?: number;
  /** How long a stop lets running jobs finish before handing them back (default DEFAULT_WORKER_GRACE_MS). */
  graceMs?: number;
  /** Told when the pool stopped by itself and when a new one took over (the CLI prints it). */
  onPool?: (event: { state: 'lost'; reason: string } | { state: 'restored'; afterMs: number }) => void;
}

const sleep = (ms: number) => new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), ms).unref());

/**
 * Readies a new worker before it takes jobs, so its first jobs do not all pay at once for what
 * every later job finds ready: the provider SDKs are loaded (about 1 s of module loading that the
 * first live runs would otherwise wait on), Prisma's query compiler is loaded and the data layer's
 * connections are opened (each a new PostgreSQL backend).
 */
async function warmUp(db: Database, concurrency: number): Promise<void> {
  await preloadLiveModels();
  // The governed resume's modules (the governance service, the policy file, the MCP executor): a
  // worker started to replace a dead one is the one that takes its resume over, and loading them
  // on a loaded machine took 1–3 s of a takeover (issue 42's kill drill).
  // (The handler imports it lazily; loaded here, that import is free.)
  await import('./governed-jobs');
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
  const slots = new SlotWaiter(target.url);
  const handlers = createHandlers({ modelGate: limits.size > 0 ? providerGates(db, limits, id, slots) : undefined, ...options.deps });
  // The graphile ids jobs may be locked under: the current pool's, and a stopped pool's until its jobs are handed back.
  let workerIds: string[] = [];
  await queue.countJobs(); // migrates graphile-worker's schema before the runner starts
  await warmUp(db, options.concurrency);
  const graceMs = options.graceMs ?? DEFAULT_WORKER_GRACE_MS;
  const stopping = new AbortController();
  let released = false;
  const startPool = () =>
    startGraphileRunner({
      connectionString: target.url,
      concurrency: options.concurrency,
      handlers,
      queue,
      onWorkerId: (w) => workerIds.push(w),
      stopSignal: stopping.signal,
      released: () => released,
      graceMs,
      stopRequested: () => stopRequested,
    });
  let stopRequested = false;
  let current = await startPool();
  /** Whether the current pool shut itself down (it takes no more jobs, even while its last handlers end). */
  let lost = false;
  /** A restore in progress (stop waits for it, so the pool it stops is the newest). */
  let restoring: Promise<void> | null = null;
  /**
   * Hands back what the stopped pool still holds and starts a new pool, retried every
   * RESTORE_RETRY_MS until the database answers (or the worker is stopped).
   */
  const restore = async (old: GraphileRunner, reason: string): Promise<void> => {
    options.onPool?.({ state: 'lost', reason });
    const lostAt = Date.now();
    const stale = [...workerIds];
    while (!stopRequested) {
      try {
        await queue.withClient((c) => c.query('SELECT 1')); // the database answers again
        // Its jobs go back first (attempts not spent), so a forceful end below, whose fail checks the lock, changes nothing;
        // a handler of the old pool still running stores nothing after this (fenced: the lock is not its pool's any more).
        await queue.returnJobsOf(stale, 'the worker pool stopped (the database went away); handed back without spending an attempt');
        if ((await Promise.race([old.runner.promise.then(() => 'ended' as const, () => 'ended' as const), sleep(OLD_POOL_WAIT_MS)])) === 'timeout') {
          await Promise.resolve(old.pool.forcefulShutdown('replaced by a new pool after the database came back')).catch(() => undefined);
        }
        workerIds = [];
        lost = false;
        current = await startPool();
        options.onPool?.({ state: 'restored', afterMs: Date.now() - lostAt });
        return;
      } catch (err) {
        workerIds = [...new Set([...stale, ...workerIds])];
        if (!isConnectionLost(err)) console.error(`stockroom worker: restoring the worker pool failed: ${err instanceof Error ? err.message : String(err)}`);
        await sleep(RESTORE_RETRY_MS);
      }
    }
  };
  /** Watches the current pool; when it stops by itself (not by stop()), restores it. */
  const watch = (watched: GraphileRunner) => {
    void Promise.race([
      watched.stoppingByItself,
      watched.runner.promise.then(
        () => 'it exited',
        (err: unknown) => `it failed: ${err instanceof Error ? err.message : String(err)}`,
      ),
    ])
      .then(async (reason) => {
        if (stopRequested) return;
        lost = true;
        restoring = restore(watched, reason);
        await restoring;
        restoring = null;
        if (!stopRequested) watch(current);
      });
  };
  watch(current);
  const heartbeat = startHeartbeat({
    // Its own connection: beats never queue behind the jobs' queries on the data layer's pool.
    store: openHeartbeatStore(target.url),
    id,
    concurrency: options.concurrency,
    // A pool that shut itself down takes no job, even while its last handlers end: no working slot.
    slots: () => (lost ? 0 : current.slots()),
    workerIds: () => workerIds,
    release: (ids) => queue.releaseWorkers(ids),
    leaseMs: options.leaseMs,
    intervalMs: options.heartbeatMs,
  });
  // Reconciliation: a suite whose fan-out was lost (its jobs deleted by hand, a queue restored) is enqueued again.
  await recoverUnfinishedSuites(queue, db).catch((err: unknown) => console.error('stockroom worker: recovering unfinished suites failed', err));
  let stopped: Promise<StopReport> | null = null;
  const stop = async (): Promise<StopReport> => {
    stopRequested = true;
    if (restoring) await restoring;
    const pool = current.pool;
    // No new jobs from here; the running ones carry on. The heartbeat keeps beating meanwhile, so no
    // other worker takes this one for dead and starts its jobs a second time.
    const drained = Promise.resolve(pool.gracefulShutdown(`stockroom worker ${id} stopping`)).then(
      () => 'drained' as const,
      () => 'drained' as const,
    );
    let handedBack: string[] = [];
    let releaseFailed = false;
    if ((await Promise.race([drained, sleep(graceMs)])) === 'timeout') {
      // Handed back before the handlers are aborted, so an aborted handler's failure cannot push its job back by a retry backoff.
      released = true;
      try {
        handedBack = await queue.returnJobsOf(workerIds, `the worker stopped after its ${graceMs} ms grace period; handed back unfinished`);
      } catch (err) {
        releaseFailed = true;
        console.error('stockroom worker: could not hand its jobs back (the other workers release them once its lease ends)', err);
      }
      stopping.abort(new Error('the worker is stopping'));
      if ((await Promise.race([drained, sleep(ABORT_WAIT_MS)])) === 'timeout') await Promise.resolve(pool.forcefulShutdown('handlers did not end after the abort')).catch(() => undefined);
    } else {
      // Drained: nothing runs here any more. What is still locked under these ids (a pool that had
      // stopped by itself and was not restored yet) goes back before the heartbeat row does.
      try {
        handedBack = await queue.returnJobsOf(workerIds, 'the worker stopped; handed back unfinished');
      } catch (err) {
        releaseFailed = true;
        console.error(`stockroom worker: could not hand its jobs back (the other workers release them once its lease ends): ${err instanceof Error ? err.message : String(err)}`);
      }
    }
    // The heartbeat row goes only once nothing is locked under this worker's ids; if handing back
    // failed, it stays, and the other workers' lease check releases the jobs.
    await heartbeat.stop({ forget: !releaseFailed });
    await slots.close();
    await queue.close();
    await db.close();
    return { released: handedBack.length };
  };
  const leaseMs = options.leaseMs ?? WORKER_LEASE_MS;
  return {
    id,
    health() {
      const slots = lost ? 0 : current.slots();
      const last = heartbeat.lastBeat();
      return { slots, lastBeat: last?.toISOString() ?? null, alive: slots > 0 && last !== null && Date.now() - last.getTime() < leaseMs };
    },
    stop() {
      stopped ??= stop();
      return stopped;
    },
  };
}
