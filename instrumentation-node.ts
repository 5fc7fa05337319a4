/**
 * The Node.js half of instrumentation.ts, imported only when the server runs on Node.js, so the Edge
 * instrumentation bundle never traces the database, the governance service or the MCP executor.
 *
 * On PostgreSQL the server only enqueues and reads: suites, resumes and sweeps run on the workers
 * (`npm run worker`, lib/jobs), whose heartbeats and leases hand a dead worker's jobs to another.
 * On the embedded SQLite default the server is its own worker: its in-process queue forgets jobs
 * when the process stops, so every unfinished suite is enqueued again (stored cases are skipped;
 * nothing is failed by a grace window), and the governed-run sweeper runs here.
 */
import { resolveDatabaseUrl } from './lib/db/core/database-url';
import { deliveryQueueOf, getJobQueue, pokeWatch } from './lib/jobs/queue';
import { recoverUnfinishedSuites } from './lib/jobs/recover';
import { failInterruptedRuns } from './lib/db/runs/run-progress';
import { sweepGovernedRuns, SWEEP_INTERVAL_MS } from './lib/runs/sweeper';
import { settleQuietTraces } from './lib/db/traces/otlp-store';
import { traceQuietMs } from './lib/otel/import/limits';
import { checkEnvironment } from './lib/startup/env';

export async function registerNode(): Promise<void> {
  // Before anything else: a bad value stops the server (app.prepare() rejects, scripts/serve.mjs exits), naming the variable.
  checkEnvironment(process.env, 'web');
  if (resolveDatabaseUrl(process.env.DATABASE_URL).provider === 'postgres') {
    // Another server may still be running a live run that is `running` here, so none is ended.
    console.log('stockroom: PostgreSQL: suites and sweeps run on the workers (npm run worker)');
    return;
  }
  // SQLite has one server: a live run still `running` from before this boot gets no more steps.
  try {
    const n = await failInterruptedRuns(new Date());
    if (n > 0) console.log(`stockroom: marked ${n} interrupted live run(s) as ended`);
  } catch (err) {
    console.error('stockroom: could not check for interrupted live runs', err);
  }
  try {
    const n = await recoverUnfinishedSuites(getJobQueue());
    if (n > 0) console.log(`stockroom: resumed ${n} unfinished suite run(s)`);
  } catch (err) {
    console.error('stockroom: could not resume unfinished suite runs', err);
  }
  await startGovernedSweeper();
}

/**
 * Governed runs move on without anyone opening them: expired approvals finish their run, decided
 * requests whose resume failed and runs stuck resuming past the lease are resumed (now, then
 * every SWEEP_INTERVAL_MS).
 */
async function startGovernedSweeper(): Promise<void> {
  let running = false;
  const sweep = async () => {
    if (running) return;
    running = true;
    try {
      const r = await sweepGovernedRuns(new Date(), deliveryQueueOf(getJobQueue()));
      const settled = await settleQuietTraces(traceQuietMs());
      if (settled > 0) console.log(`stockroom: ${settled} imported trace(s) went quiet without a root span: finished`);
      // Finished runs waiting for their evaluators (a poke lost with a restart), and the alert rules.
      await pokeWatch();
      if (r.resumed.length > 0) console.log(`stockroom: resumed ${r.resumed.length} governed run(s)`);
      for (const f of r.failed) console.error(`stockroom: resuming governed run ${f.runId} failed: ${f.error}`);
    } catch (err) {
      console.error('stockroom: the governed-run sweep failed', err);
    } finally {
      running = false;
    }
  };
  await sweep();
  setInterval(() => void sweep(), SWEEP_INTERVAL_MS).unref();
}
