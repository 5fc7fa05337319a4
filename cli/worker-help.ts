/**
 * `npm run worker -- --help`, apart from cli/worker.ts (which starts the worker when loaded) so the
 * generated CLI reference (docs/reference/cli.md) prints the same text.
 */
import { DEFAULT_WORKER_GRACE_MS } from '../lib/jobs/worker';

/** The worker's own flags (besides --help). */
export const WORKER_FLAGS = ['concurrency'] as const;

export function workerHelp(): string {
  return `usage: npm run worker [-- --concurrency N]\n  runs suites, matrices, governed resumes and sweeps from the PostgreSQL queue (DATABASE_URL)\n  --concurrency N   jobs at once (default STOCKROOM_WORKER_CONCURRENCY or 4)\n  STOCKROOM_WORKER_NICE=N   run at CPU priority N (0–19; 10 when sharing a machine with the web server)\n  STOCKROOM_WORKER_GRACE_MS=N   on SIGTERM/SIGINT, how long running jobs may finish before they are handed back (default ${DEFAULT_WORKER_GRACE_MS})\n  STOCKROOM_WORKER_HEALTH_PORT=N   serve GET /healthz on port N (200 while the worker can take jobs, else 503): a liveness probe\n`;
}
