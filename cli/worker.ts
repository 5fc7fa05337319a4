/**
 * `npm run worker [-- --concurrency N]`: one job worker on the PostgreSQL queue (lib/jobs/worker.ts).
 * Start as many as the work needs, on any machine that reaches the database.
 */
import { createServer, type Server } from 'node:http';
import { setPriority } from 'node:os';
import { parseArgs as parseNodeArgs } from 'node:util';
import { resolveDatabaseUrl } from '../lib/db/core/database-url';
import { concurrencyFromEnv, workerNiceFromEnv } from '../lib/jobs/queue';
import { DEFAULT_WORKER_CONCURRENCY, DEFAULT_WORKER_GRACE_MS, startWorker } from '../lib/jobs/worker';
import { openMigratedDatabase } from './database';
import { checkEnvironment } from '../lib/startup/env';
import { workerHelp } from './worker-help';

async function main(): Promise<number> {
  checkEnvironment(process.env, 'worker'); // before anything else: a bad value stops the worker, naming the variable
  const { values } = parseNodeArgs({ options: { concurrency: { type: 'string' }, help: { type: 'boolean' } }, strict: true });
  if (values.help) {
    process.stdout.write(workerHelp());
    return 0;
  }
  const concurrency = concurrencyFromEnv('--concurrency', DEFAULT_WORKER_CONCURRENCY, { '--concurrency': values.concurrency ?? process.env.STOCKROOM_WORKER_CONCURRENCY } as unknown as NodeJS.ProcessEnv);
  if (resolveDatabaseUrl(process.env.DATABASE_URL).provider !== 'postgres') {
    throw new Error('npm run worker needs DATABASE_URL=postgres://… (on the embedded SQLite default, npm start runs suites in the server itself)');
  }
  const env = process.env;
  const graceMs = concurrencyFromEnv('STOCKROOM_WORKER_GRACE_MS', DEFAULT_WORKER_GRACE_MS, env, 3_600_000, 0);
  // Signals are taken from the start, so one that arrives while the worker readies itself is not lost (nor kills it half-way).
  let signalled: NodeJS.Signals | null = null;
  let onSignal: ((signal: NodeJS.Signals) => void) | null = null;
  const handle = (signal: NodeJS.Signals) => {
    if (signalled) {
      process.stdout.write(`stockroom worker: ${signal} again; already stopping (running jobs have ${graceMs} ms, then they are handed back)\n`);
      return;
    }
    signalled = signal;
    onSignal?.(signal);
  };
  process.on('SIGTERM', handle);
  process.on('SIGINT', handle);
  const nice = workerNiceFromEnv();
  if (nice > 0) setPriority(nice); // below the web server's pages when they share the machine
  const db = await openMigratedDatabase(); // the schema is brought up to date before any job runs
  await db.close();
  const leaseMs = env.STOCKROOM_WORKER_LEASE_MS ? concurrencyFromEnv('STOCKROOM_WORKER_LEASE_MS', 0, env, 3_600_000) : undefined;
  const healthPort = env.STOCKROOM_WORKER_HEALTH_PORT ? concurrencyFromEnv('STOCKROOM_WORKER_HEALTH_PORT', 0, env, 65_535) : undefined;
  const worker = await startWorker({
    concurrency,
    leaseMs,
    graceMs,
    heartbeatMs: leaseMs !== undefined ? Math.max(200, Math.floor(leaseMs / 6)) : undefined, // the default ratio (lib/db/core/worker-heartbeats.ts)
    onPool: (e) =>
      process.stdout.write(
        e.state === 'lost'
          ? `stockroom worker: its job pool stopped (${e.reason}); no heartbeat until a new pool starts, once the database answers\n`
          : `stockroom worker: job pool restored after ${e.afterMs} ms\n`,
      ),
    // One line per stored case (tests and the bench count who did what).
    deps:
      env.STOCKROOM_WORKER_LOG_CASES === '1'
        ? {
            onCaseStarted: (j) => process.stdout.write(`started ${j.suiteRunId} ${j.setting} ${j.caseId}\n`),
            onCaseStored: (j) => process.stdout.write(`stored ${j.suiteRunId} ${j.setting} ${j.caseId}\n`),
            onCaseLeaseLost: (j) => process.stdout.write(`lease-lost ${j.suiteRunId} ${j.setting} ${j.caseId}\n`),
          }
        : undefined,
  });
  const health: Server | null = healthPort !== undefined ? serveHealth(healthPort, () => worker.health()) : null;
  process.stdout.write(`stockroom worker ${worker.id} ready (concurrency ${concurrency})\n`);
  const signal = await new Promise<NodeJS.Signals>((resolve) => {
    onSignal = resolve;
    if (signalled) resolve(signalled);
  });
  process.stdout.write(`stockroom worker ${worker.id} stopping (${signal}): no new jobs; running jobs have ${graceMs} ms to finish\n`);
  health?.close();
  const { released } = await worker.stop();
  process.stdout.write(`stockroom worker ${worker.id} stopped${released > 0 ? `; handed ${released} unfinished job(s) back to the queue` : ''}\n`);
  return 0;
}

/** GET /healthz for a liveness probe: 200 with the worker's health while it can take jobs, 503 otherwise. */
function serveHealth(port: number, health: () => ReturnType<Awaited<ReturnType<typeof startWorker>>['health']>): Server {
  const server = createServer((req, res) => {
    if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/healthz') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    const h = health();
    res.writeHead(h.alive ? 200 : 503, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(JSON.stringify(h) + '\n');
  });
  server.on('error', (err) => process.stderr.write(`stockroom worker: the health port ${port} failed: ${err.message}\n`));
  server.listen(port);
  return server;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`stockroom worker: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
