/**
 * `--replay-from RUN_ID` on run: re-run a stored run's query against the current settings, answering
 * each model call from the run's recorded exchanges while the requests match. The stored run must
 * belong to the tenant of the dataset being run (another tenant's run answers as not found). With a
 * live `--model`, the run continues live from the first mismatch; otherwise it stops as DIVERGED.
 */
import { NotFoundError } from '../lib/db/errors';
import { getRunOrThrow } from '../lib/db/runs-read';
import { DEFAULT_MAX_TOKENS } from '../lib/harness/tunables';
import type { RunResult } from '../lib/harness/types';
import { stringFlag, type FlagSpec, type ParsedArgs } from './args';
import { CliUsageError } from './command';
import { openMigratedDatabase } from './database';
import { tenantOfDatasetDir } from './save';

export const REPLAY_FLAGS: FlagSpec = {
  'replay-from': { type: 'string', description: "a stored run's id: re-run it against the current settings from its recorded model responses" },
};

export interface ReplaySource {
  run: RunResult;
  /** The max-tokens setting the stored run was made with (every recorded request carries it). */
  maxTokens: number;
}

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
    if (!stored.run.exchanges?.length) {
      throw new CliUsageError(`--replay-from ${id}: the run has no recorded model exchanges (only live-model runs are recorded)`);
    }
    const config = stored.meta.config as { maxTokens?: unknown } | null;
    const maxTokens = typeof config?.maxTokens === 'number' ? config.maxTokens : DEFAULT_MAX_TOKENS;
    return { run: stored.run, maxTokens };
  } finally {
    await db.close();
  }
}
