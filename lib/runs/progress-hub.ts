import 'server-only';
/**
 * Live progress of runs for those following them — pages (server-sent events) and MCP clients
 * subscribed to a run (lib/runs/mcp-resources.ts): one poller per run in this process (watch-hub.ts)
 * reads the run's progress row every PROGRESS_POLL_MS.
 */
import { getDb, type Database } from '../db/core';
import { getRunProgressOrThrow, type RunProgressDto } from '../db/runs';
import { isLiveStatus } from '../format';
import { createWatchHub, type Watcher, type WatchHub } from './watch-hub';

/** How often a watched run's progress row is read. */
export const PROGRESS_POLL_MS = 100;

// One hub per process, whichever route bundle loads this module (the run page's event stream and
// /api/mcp's subscriptions both follow runs through it), and across Next's dev-mode reloads.
const cache = globalThis as unknown as { __stockroomProgressHub?: WatchHub<RunProgressDto> };
const hub = (cache.__stockroomProgressHub ??= createWatchHub<RunProgressDto>({ pollMs: PROGRESS_POLL_MS, live: (p) => isLiveStatus(p.status) }));

/**
 * Calls `watcher` with the run's progress now and whenever it changes; with null when the run is gone
 * (deleted, or it cannot be read). Stops by itself once the run has ended. Returns the unsubscribe.
 */
export function watchRunProgress(runId: string, watcher: Watcher<RunProgressDto>, db: Database = getDb()): () => void {
  return hub.watch(runId, watcher, (id) => getRunProgressOrThrow(id, db));
}

/**
 * Reads a watched run's progress now instead of at the next tick: its record was just stored by this
 * process (a run the web server runs itself). Runs stored by other processes are seen at the next tick.
 */
export function nudgeRunProgress(runId: string): void {
  hub.nudge(runId);
}

/** Runs watched in this process now (tests). */
export function watchedRuns(): number {
  return hub.size();
}

/** For tests: forget every poller. */
export function resetProgressHub(): void {
  hub.reset();
}
