/**
 * Stopping a live run from the dashboard. A run started by this process is aborted at once through
 * its controller; the request is also written on the run's row (`stopping`), which the process that
 * runs it polls, so a run started by another server sharing PostgreSQL stops too. Either way the
 * harness ends it as MODEL_ERROR (cancelled) and the run keeps its steps so far.
 */
import { getDb, type Database } from '../db/core';
import { endRunsUnfinished, markRunStopping, runStatus } from '../db/runs';

/** How often a live run checks its row for a stop request made through another server. */
export const STOP_POLL_MS = 1_000;

const local = new Map<string, AbortController>();

/** Registers a live run of this process; the returned signal aborts when someone stops it. */
export function watchForStop(runId: string, db: Database = getDb()): { signal: AbortSignal; dispose: () => void } {
  const controller = new AbortController();
  local.set(runId, controller);
  const poll = setInterval(() => {
    void runStatus(runId, db)
      .then((status) => {
        if (status === 'stopping') controller.abort(new DOMException('the run was stopped', 'AbortError'));
      })
      .catch(() => undefined);
  }, STOP_POLL_MS);
  poll.unref?.();
  return {
    signal: controller.signal,
    dispose: () => {
      clearInterval(poll);
      local.delete(runId);
    },
  };
}

/** What a run stopped before any worker took it says. */
export const STOPPED_WHILE_QUEUED = 'Stopped before a worker took it: nothing ran.';

/**
 * Asks a running run to stop (or ends a queued one at once): true when it was running (now `stopping`), false when it had already
 * ended. The caller has checked the run belongs to its tenant.
 */
export async function requestStop(runId: string, db: Database = getDb()): Promise<boolean> {
  // A run no worker has taken yet ends here and now; the worker that takes its job finds it finished.
  if ((await endRunsUnfinished({ id: runId, status: 'queued' }, STOPPED_WHILE_QUEUED, db)) > 0) return true;
  const stopping = await markRunStopping(runId, db);
  const controller = local.get(runId);
  if (controller) controller.abort(new DOMException('the run was stopped', 'AbortError'));
  return stopping || controller !== undefined;
}
