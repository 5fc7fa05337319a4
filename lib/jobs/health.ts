/**
 * What `/api/health` reports, for a load balancer and an operator: can this server reach its
 * database, and what does the job queue look like (live workers and their slots, jobs waiting,
 * running and failed for good). Each probe has a deadline, so a database that hangs (a network cut)
 * is reported unavailable in seconds rather than holding the load balancer's check open. Only the
 * database decides `ok`: a web server without workers still serves pages, and the queue part says
 * that no worker is running.
 */
import { getDb } from '../db/core';
import { workerPresence } from '../db/suites';
import { asDatabaseUnavailable, type UnavailableReason } from '../db/core';
import { GraphileQueue } from './graphile';
import { getJobQueue } from './queue';

/** How long each probe may take before it counts as failed (a load balancer's check is typically 5 s). */
export const HEALTH_PROBE_TIMEOUT_MS = 2_000;

export type DatabaseHealth =
  | { ok: true; provider: 'sqlite' | 'postgres'; latencyMs: number }
  | { ok: false; provider: 'sqlite' | 'postgres'; reason: UnavailableReason | 'error'; error: string };

export type QueueHealth =
  | { ok: true; backend: 'in-process' }
  | { ok: true; backend: 'graphile-worker'; workersOnline: number; slots: number; waiting: number; running: number; failed: number }
  | { ok: false; backend: 'graphile-worker'; error: string };

export interface Health {
  ok: boolean;
  database: DatabaseHealth;
  queue: QueueHealth;
  checkedAt: string;
}

class ProbeTimeout extends Error {}

function withDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ProbeTimeout(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

async function databaseHealth(timeoutMs: number): Promise<DatabaseHealth> {
  const db = getDb();
  const started = performance.now();
  try {
    await withDeadline(db.prisma.$queryRaw`SELECT 1`, timeoutMs);
    return { ok: true, provider: db.provider, latencyMs: Math.round((performance.now() - started) * 10) / 10 };
  } catch (err) {
    if (err instanceof ProbeTimeout) return { ok: false, provider: db.provider, reason: 'unreachable', error: `The database did not answer within ${timeoutMs} ms.` };
    const down = asDatabaseUnavailable(err);
    if (down) return { ok: false, provider: db.provider, reason: down.reason, error: down.message };
    return { ok: false, provider: db.provider, reason: 'error', error: 'The database check failed (see the server log).' };
  }
}

async function queueHealth(timeoutMs: number): Promise<QueueHealth> {
  const queue = getJobQueue();
  if (!(queue instanceof GraphileQueue)) return { ok: true, backend: 'in-process' };
  try {
    const [report, presence] = await withDeadline(Promise.all([queue.report(0), workerPresence()]), timeoutMs);
    const sum = (k: 'waiting' | 'running' | 'failed') => report.byKind.reduce((n, r) => n + r[k], 0);
    return {
      ok: true,
      backend: 'graphile-worker',
      workersOnline: presence.backend === 'workers' ? presence.online : 0,
      slots: presence.backend === 'workers' ? presence.slots : 0,
      waiting: sum('waiting'),
      running: sum('running'),
      failed: sum('failed'),
    };
  } catch (err) {
    const down = asDatabaseUnavailable(err);
    return { ok: false, backend: 'graphile-worker', error: err instanceof ProbeTimeout ? `The job queue did not answer within ${timeoutMs} ms.` : down ? down.message : 'The job queue check failed (see the server log).' };
  }
}

/** Probes the database and the queue at once; never throws. */
export async function checkHealth(timeoutMs = HEALTH_PROBE_TIMEOUT_MS): Promise<Health> {
  const [database, queue] = await Promise.all([databaseHealth(timeoutMs), queueHealth(timeoutMs)]);
  if (!database.ok && database.reason === 'error') console.error('[health] the database check failed');
  return { ok: database.ok, database, queue, checkedAt: new Date().toISOString() };
}
