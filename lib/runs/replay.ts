import 'server-only';
/**
 * "Replay against…": re-runs a stored live run of the caller's tenant under other settings, answering
 * each model call from the run's recorded exchanges (the same ReplayModelClient as `run
 * --replay-from`). At the first request that differs the new run stops as DIVERGED with the step and a
 * diff of the two requests — or, when a live model is chosen, continues live from there.
 */
import { getRunOrThrow } from '../db/runs';
import { requireRunInTenant } from '../db/governance';
import { NotReplayableError, replaySourceOf } from '../models';
import type { ReplayRunInput } from '../schemas/replay-run';
import type { RunOneInput } from '../schemas/run-settings';
import { InputError } from './errors';
import { datasetOptions } from './datasets';
import { startRun } from './single';

export interface ReplayRunResult {
  /** The new run. */
  runId: string;
  /** The run it replayed. */
  replayedFrom: string;
  terminationReason: string;
}

export async function replayRun(input: ReplayRunInput, caller: { id: string; tenant: string }): Promise<ReplayRunResult> {
  // Another tenant's run is not found, exactly like a missing one.
  await requireRunInTenant(input.runId, caller.tenant);
  const stored = await getRunOrThrow(input.runId);
  let source;
  try {
    source = replaySourceOf(stored.run, stored.meta.config);
  } catch (err) {
    if (err instanceof NotReplayableError) throw new InputError('runId', `This run cannot be replayed: ${err.message}.`);
    throw err;
  }
  const dataset = datasetOptions(caller.tenant).find((d) => d.name === stored.meta.datasetName && d.problem === null);
  if (!dataset) throw new InputError('runId', `This run's dataset (${stored.meta.datasetName}) is not one this dashboard can run.`);
  const caseId = stored.run.caseId && dataset.cases.some((c) => c.id === stored.run.caseId) ? stored.run.caseId : undefined;
  const runInput: RunOneInput = {
    datasetId: dataset.id,
    ...(caseId ? { caseId } : { query: stored.run.query }),
    weaknesses: input.weaknesses,
    guards: input.guards,
    payloadWrappers: input.payloadWrappers,
    transport: input.transport,
    model: input.model,
    toolServer: undefined,
    // A replay is a run of its own: the replayed run's tags say how that one was started, not this one.
    tags: [],
  };
  const summary = await (await startRun(runInput, caller, { replay: source })).done;
  return { runId: summary.runId, replayedFrom: stored.id, terminationReason: summary.terminationReason };
}
