/**
 * What replaying a stored run needs, shared by `run --replay-from` and the dashboard's "Replay
 * against…": the stored run's recorded exchanges and the max-tokens setting every recorded request
 * carried, and the model client that answers from them.
 */
import { HarnessError } from '../harness';
import type { ModelClient } from '../harness';
import { DEFAULT_MAX_TOKENS } from '../harness';
import type { RunResult } from '../harness';
import { ReplayModelClient } from './recording';

export interface ReplaySource {
  run: RunResult;
  /** The max-tokens setting the stored run was made with (every recorded request carries it). */
  maxTokens: number;
}

/** A stored run that cannot be replayed (nothing was recorded). */
export class NotReplayableError extends HarnessError {
  constructor(message: string) {
    super('not_replayable', message);
  }
}

/** The replay source of a stored run and its stored configuration; NotReplayableError when it recorded nothing. */
export function replaySourceOf(run: RunResult, storedConfig: unknown): ReplaySource {
  if (!run.exchanges?.length) throw new NotReplayableError('the run has no recorded model exchanges (only live-model runs are recorded)');
  const config = storedConfig as { maxTokens?: unknown } | null;
  return { run, maxTokens: typeof config?.maxTokens === 'number' ? config.maxTokens : DEFAULT_MAX_TOKENS };
}

/**
 * The model for a replay: recorded answers while the requests match; from the first mismatch the
 * live model when one is given, else the run stops as DIVERGED.
 */
export function replayModel(source: ReplaySource, live: ModelClient | null): ReplayModelClient {
  return new ReplayModelClient(source.run, { live, recordedMaxTokens: source.maxTokens });
}
