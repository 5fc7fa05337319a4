/**
 * The Node.js half of instrumentation.ts, imported only when the server runs on Node.js, so the Edge
 * instrumentation bundle never traces the database, the governance service or the MCP executor.
 *
 * Suites are worked on by a queue inside the server process, so suites its predecessor left queued
 * or running can never finish: mark them failed so the pages stop polling them and say why. Then
 * start the governed-run sweeper.
 */
import { failInterruptedSuites } from './lib/db/suites';
import { failInterruptedRuns } from './lib/db/run-progress';
import { sweepGovernedRuns, SWEEP_INTERVAL_MS } from './lib/actions/support/sweeper';

/** Suites touched this recently are assumed alive in another server process. */
const STALE_GRACE_MS = 10_000;

export async function registerNode(): Promise<void> {
  // A little before boot: another server sharing PostgreSQL touches its live suites after every case.
  const staleBefore = new Date(Date.now() - STALE_GRACE_MS);
  try {
    const n = await failInterruptedSuites(staleBefore);
    if (n > 0) console.log(`stockroom: marked ${n} interrupted suite run(s) as failed`);
  } catch (err) {
    console.error('stockroom: could not check for interrupted suite runs', err);
  }
  // Live runs are stored step by step: one left running by the predecessor will get no more steps.
  try {
    const n = await failInterruptedRuns(staleBefore);
    if (n > 0) console.log(`stockroom: marked ${n} interrupted live run(s) as ended`);
  } catch (err) {
    console.error('stockroom: could not check for interrupted live runs', err);
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
      const r = await sweepGovernedRuns();
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
