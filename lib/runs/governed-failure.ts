import 'server-only';
/**
 * How a governed start or resume that fails tells the truth about what was written: the failure is
 * kept on the run and its request (the sweeper retries a resume), and when the downstream already
 * applied a write the user is told so (retrying by hand would write twice).
 */
import { getDb } from '../db/core';
import { appliedWrites, recordGovernedFailure } from '../db/governance';
import { ConflictError, GovernanceError } from '../governance';
import { HarnessError } from '../harness';
import { RunError } from './errors';

/** Longest failure note kept on a run (the server log has the rest). */
const MAX_FAILURE_CHARS = 500;

/** Runs `work`; another worker winning the run (ConflictError) is not a failure. */
export async function truthfully<T>(runId: string, what: 'start' | 'resume', work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof ConflictError) throw err;
    const prisma = getDb().prisma;
    // Governance and harness errors say what is wrong in words a user can act on; anything else
    // (database, driver) stays in the server log, never on the page.
    const known = err instanceof GovernanceError || err instanceof HarnessError;
    if (!known) console.error(`[governed ${what}] run ${runId} failed`, err);
    const reason = known ? (err as Error).message : 'an unexpected server error (see the server log)';
    await recordGovernedFailure(prisma, runId, `${what} failed: ${reason}`.slice(0, MAX_FAILURE_CHARS)).catch(() => undefined);
    const writes = await appliedWrites(prisma, runId).catch(() => null);
    if (writes === null || writes.length > 0) {
      const list = writes?.map((w) => `${w.tool} ${w.status} (${w.operationKey})`).join(', ') ?? 'unknown: the journal could not be read';
      throw new RunError(
        'failed_after_write',
        `The run ${what === 'start' ? 'started' : 'resumed'} and then failed after a write reached the downstream system: ${list}. ` +
          `Do not start it again, that would write twice; the effects page shows the write.` +
          (what === 'resume' ? ' The run will be resumed again automatically.' : ''),
        { cause: err },
      );
    }
    throw err;
  }
}
