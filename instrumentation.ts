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
}

/** Suites touched this recently are assumed alive in another server process. */
const STALE_GRACE_MS = 10_000;
