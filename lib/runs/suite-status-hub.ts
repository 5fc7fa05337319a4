import 'server-only';
/**
 * A suite's status for the pages following it (server-sent events): one poller per suite in this
 * process (watch-hub.ts) reads the suite's status every SUITE_STATUS_POLL_MS, so a page learns the
 * suite has finished within that instead of at its next poll of the whole suite (a second apart:
 * issue 36, the first demo's table waited up to that long after its last run was stored).
 */
import { getDb, type Database } from '../db/core';
import { NotFoundError } from '../db/core';
import { suiteStatus } from '../db/suites';
import { createWatchHub, type Watcher } from './watch-hub';

/** How often a watched suite's status is read (one primary-key read of one column). */
export const SUITE_STATUS_POLL_MS = 100;

export interface SuiteStatusDto {
  status: string;
}

const hub = createWatchHub<SuiteStatusDto>({ pollMs: SUITE_STATUS_POLL_MS, live: (s) => s.status === 'queued' || s.status === 'running' });

/** Calls `watcher` with the suite's status now and when it changes (null: gone); stops after the end. Returns the unsubscribe. */
export function watchSuiteStatus(suiteRunId: string, watcher: Watcher<SuiteStatusDto>, db: Database = getDb()): () => void {
  return hub.watch(suiteRunId, watcher, async (id) => {
    const status = await suiteStatus(id, db);
    if (status === null) throw new NotFoundError('suite run', id);
    return { status };
  });
}

/** Suites watched in this process now (tests). */
export function watchedSuites(): number {
  return hub.size();
}
