/**
 * Runs once when the Next.js server starts. Suites are worked on by a queue inside the server
 * process, so suites its predecessor left queued or running can never finish: mark them failed so
 * the pages stop polling them and say why.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { failInterruptedSuites } = await import('./lib/db/suites');
  // A little before boot: another server sharing PostgreSQL touches its live suites after every case.
  const staleBefore = new Date(Date.now() - STALE_GRACE_MS);
  try {
    const n = await failInterruptedSuites(staleBefore);
    if (n > 0) console.log(`stockroom: marked ${n} interrupted suite run(s) as failed`);
  } catch (err) {
    console.error('stockroom: could not check for interrupted suite runs', err);
  }
  await startGovernedSweeper();
}

/**
 * Governed runs move on without anyone opening them: expired approvals finish their run, decided
 * requests whose resume failed and runs stuck resuming past the lease are resumed (now, then
 * every SWEEP_INTERVAL_MS).
 */
async function startGovernedSweeper(): Promise<void> {
  // Repeated here so the Edge compile drops the import below as dead code: Turbopack bundles
  // instrumentation.ts for the Edge runtime too, and the sweeper's import chain reaches esbuild's
  // native binary (lib/mcp/stdio-bundle.ts), which failed `next build`.
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { sweepGovernedRuns, SWEEP_INTERVAL_MS } = await import('./lib/actions/support/sweeper');
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

/** Suites touched this recently are assumed alive in another server process. */
const STALE_GRACE_MS = 10_000;
