/**
 * The execute → store half of a single run, shared by a run started in this process, a queued run a
 * worker took, and a replay of a recording. A live-model run is stored as it goes: the record exists
 * (status running) before its first model call and is rewritten after every step, so its replay can
 * follow it; a fake-model run takes milliseconds and is stored once, when it ends.
 */
import { isOfflineModel } from '../harness';
import type { RunResult } from '../harness';
import { replayModel, type ReplaySource } from '../models';
import { resolveLiveModel, withAgent, type LiveModel } from './agent';
import type { PreparedRun } from './prepare';
import { watchForStop } from './stop-runs';
import { liveRecorders, storeRun, storeRunSoFar } from './store';
import type { JobLease } from '../db/core';
import { summariseRun, type RunOneResult } from './summary';

/** A run that has been started: its stored id, and its summary once it finishes. */
export interface StartedRun {
  runId: string;
  done: Promise<RunOneResult>;
}

export interface ExecuteOptions {
  /** Replaying: the recorded answers, then the chosen live model (if any) from the first mismatch. */
  replay?: ReplaySource;
  /** Store over the record the run already has (a queued run). */
  replace?: boolean;
  /** The job the run is stored under (a queued run on a worker): every store checks it is still held. */
  lease?: JobLease;
}

/**
 * Runs a prepared run and stores it; resolves as soon as its first record is stored (a live run) or
 * it has ended (a fake one), with `done` for the rest.
 */
export async function executeRun(p: PreparedRun, options: ExecuteOptions = {}): Promise<StartedRun> {
  const { dataset, golden, server, config, meta } = p;
  const liveProgress = !isOfflineModel(config.model);
  let stored: () => void = () => {};
  const firstStored = new Promise<void>((resolve) => (stored = resolve));
  const runAndStore = async (live: LiveModel, signal: AbortSignal | undefined) => {
    const run: RunResult = await withAgent({ dataset, config, tools: server, live }, (agent) =>
      agent.run(p.query, golden?.id ?? null, {
        signal,
        // Stored as it goes: each step, a tool's progress and a streamed answer, shown live in the replay.
        ...(liveProgress ? liveRecorders(meta, { lease: options.lease, signal, stored }) : {}),
        model: options.replay
          ? replayModel(options.replay, live.liveModel?.({ caseId: golden?.id ?? null, weaknesses: config.weaknesses }) ?? null)
          : undefined,
      }),
    );
    await (liveProgress || options.replace ? storeRunSoFar(run, meta, undefined, options.lease) : storeRun(run, meta));
    return summariseRun(meta.id, run, golden);
  };
  const done = (async () => {
    const live = await resolveLiveModel(config);
    // A live run can be stopped from its replay page (stop-runs.ts); it ends as MODEL_ERROR (cancelled).
    const stop = liveProgress ? watchForStop(meta.id) : null;
    try {
      return await runAndStore(live, stop?.signal);
    } finally {
      stop?.dispose();
    }
  })();
  await Promise.race([firstStored, done]);
  return { runId: meta.id, done };
}
