/**
 * One golden case or free query run in this process and stored in the caller's tenant (the run
 * form on SQLite, instructor mode, compare): prepare → execute → store.
 */
import type { RunOneInput } from '../schemas/run-settings';
import { executeRun, type ExecuteOptions, type StartedRun } from './execute';
import { prepareRun, type RunCaller } from './prepare';
import type { RunOneResult } from './summary';

/**
 * Starts a run (see executeRun). Everything that can be refused is refused before this resolves,
 * with nothing stored.
 */
export async function startRun(input: RunOneInput, caller: RunCaller, options: Pick<ExecuteOptions, 'replay'> = {}): Promise<StartedRun> {
  return executeRun(prepareRun(input, caller), options);
}

/** Runs one golden case or free query to the end and returns its stored id and a short summary. */
export async function runOne(input: RunOneInput, caller: RunCaller): Promise<RunOneResult> {
  return (await startRun(input, caller)).done;
}
