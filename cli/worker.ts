/**
 * `npm run worker [-- --concurrency N]`: one job worker on the PostgreSQL queue (lib/jobs/worker.ts).
 * Start as many as the work needs, on any machine that reaches the database.
 */
import { setPriority } from 'node:os';
import { parseArgs as parseNodeArgs } from 'node:util';
import { resolveDatabaseUrl } from '../lib/db/database-url';
import { concurrencyFromEnv, workerNiceFromEnv } from '../lib/jobs/queue';
import { DEFAULT_WORKER_CONCURRENCY, startWorker } from '../lib/jobs/worker';
import { openMigratedDatabase } from './database';

async function main(): Promise<number> {
  const { values } = parseNodeArgs({ options: { concurrency: { type: 'string' }, help: { type: 'boolean' } }, strict: true });
  if (values.help) {
    process.stdout.write('usage: npm run worker [-- --concurrency N]\n  runs suites, matrices, governed resumes and sweeps from the PostgreSQL queue (DATABASE_URL)\n  --concurrency N   jobs at once (default STOCKROOM_WORKER_CONCURRENCY or 4)\n  STOCKROOM_WORKER_NICE=N   run at CPU priority N (0–19; 10 when sharing a machine with the web server)\n');
    return 0;
  }
  const concurrency = concurrencyFromEnv('--concurrency', DEFAULT_WORKER_CONCURRENCY, { '--concurrency': values.concurrency ?? process.env.STOCKROOM_WORKER_CONCURRENCY } as unknown as NodeJS.ProcessEnv);
  if (resolveDatabaseUrl(process.env.DATABASE_URL).provider !== 'postgres') {
    throw new Error('npm run worker needs DATABASE_URL=postgres://… (on the embedded SQLite default, npm start runs suites in the server itself)');
  }
  const nice = workerNiceFromEnv();
  if (nice > 0) setPriority(nice); // below the web server's pages when they share the machine
  const db = await openMigratedDatabase(); // the schema is brought up to date before any job runs
  await db.close();
  const env = process.env;
  const leaseMs = env.STOCKROOM_WORKER_LEASE_MS ? concurrencyFromEnv('STOCKROOM_WORKER_LEASE_MS', 0, env, 3_600_000) : undefined;
  const worker = await startWorker({
    concurrency,
    leaseMs,
    heartbeatMs: leaseMs !== undefined ? Math.max(200, Math.floor(leaseMs / 5)) : undefined,
    // One line per stored case (tests and the bench count who did what).
    deps: env.STOCKROOM_WORKER_LOG_CASES === '1' ? { onCaseStored: (j) => process.stdout.write(`stored ${j.suiteRunId} ${j.setting} ${j.caseId}\n`) } : undefined,
  });
  process.stdout.write(`stockroom worker ${worker.id} ready (concurrency ${concurrency})\n`);
  await new Promise<void>((resolve) => {
    const stop = () => {
      process.stdout.write(`stockroom worker ${worker.id} stopping\n`);
      resolve();
    };
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
  });
  await worker.stop();
  return 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`stockroom worker: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
