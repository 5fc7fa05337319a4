/**
 * `--replay-from RUN_ID` on run: re-run a stored run's query against the current settings, answering
 * each model call from the run's recorded exchanges while the requests match. The stored run must
 * belong to the tenant of the dataset being run (another tenant's run answers as not found). With a
 * live `--model`, the run continues live from the first mismatch; otherwise it stops as DIVERGED.
 */
import { NotFoundError } from '../lib/db/errors';
import { getRunOrThrow } from '../lib/db/runs-read';
import { NotReplayableError, replaySourceOf, type ReplaySource } from '../lib/models/replay-source';
import { stringFlag, type FlagSpec, type ParsedArgs } from './args';
import { CliUsageError } from './command';
import { openMigratedDatabase } from './database';
import { tenantOfDatasetDir } from './save';

export type { ReplaySource } from '../lib/models/replay-source';

export const REPLAY_FLAGS: FlagSpec = {
  'replay-from': { type: 'string', description: "a stored run's id: re-run it against the current settings from its recorded model responses" },
};

/** The stored run `--replay-from` names, or null without the flag. Refuses a run with nothing recorded. */
export async function replaySourceFromArgs(args: ParsedArgs, datasetDir: string): Promise<ReplaySource | null> {
  const id = stringFlag(args, 'replay-from');
  if (id === undefined) return null;
  const db = await openMigratedDatabase();
  try {
    const stored = await getRunOrThrow(id, db).catch((err: unknown) => {
      throw err instanceof NotFoundError ? new CliUsageError(`--replay-from ${id}: no such run`) : err;
    });
    if (stored.meta.tenant !== tenantOfDatasetDir(datasetDir)) throw new CliUsageError(`--replay-from ${id}: no such run`);
    try {
      return replaySourceOf(stored.run, stored.meta.config);
    } catch (err) {
      throw err instanceof NotReplayableError ? new CliUsageError(`--replay-from ${id}: ${err.message}`) : err;
    }
  } finally {
    await db.close();
  }
}
