import 'server-only';
/**
 * A suite's status for the pages following it (server-sent events): one poller per suite in this
 * process (watch-hub.ts) reads the suite's status every SUITE_STATUS_POLL_MS, so a page learns the
 * suite has finished within that instead of at its next poll of the whole suite (a second apart:
 * issue 36, the first demo's table waited up to that long after its last run was stored). The end
 * is sent with the finished suite as the page polls it, so the table is drawn from the event itself
 * rather than after one more request; a suite this process finishes is read at once (nudge).
 */
import { getDb, type Database } from '../db/core';
import { suiteStatus } from '../db/suites';
import { getSuitePoll, type SuitePollDto } from '../db/suites';
import { createWatchHub, type Watcher } from './watch-hub';

/** How often a watched suite's status is read (one primary-key read of one column). */
export const SUITE_STATUS_POLL_MS = 100;

export interface SuiteStatusDto {
  status: string;
  /** Once the suite has ended: the suite as the pages poll it (GET /api/suites/[id]), read once. */
  poll?: SuitePollDto;
}

const isLive = (status: string) => status === 'queued' || status === 'running';

/**
 * One hub a process, kept on globalThis: the production build holds several copies of this module
 * (the job handlers the embedded queue runs come from the instrumentation's, the event route from its
 * own), and a nudge from one copy must reach the pollers the other made.
 */
const cache = globalThis as unknown as { __stockroomSuiteStatusHub?: ReturnType<typeof createWatchHub<SuiteStatusDto>> };
const hub = (cache.__stockroomSuiteStatusHub ??= createWatchHub<SuiteStatusDto>({ pollMs: SUITE_STATUS_POLL_MS, live: (s) => isLive(s.status) }));

/**
 * Calls `watcher` with the suite's status now and when it changes (null: gone); stops after the end,
 * which carries the finished suite read for `tenant` (the caller has checked the suite is theirs).
 * Returns the unsubscribe.
 */
export function watchSuiteStatus(suiteRunId: string, tenant: string, watcher: Watcher<SuiteStatusDto>, db: Database = getDb()): () => void {
  return hub.watch(suiteRunId, watcher, async (id) => {
    const status = await suiteStatus(id, db);
    // Gone: null, not a thrown NotFoundError, whose class the hub's copy of the module may not share.
    if (status === null) return null;
    if (isLive(status)) return { status };
    return { status, poll: await getSuitePoll(id, tenant, db, { partial: false }) };
  });
}

/** Reads a watched suite now: this process just finished or cancelled it (the embedded queue). */
export function nudgeSuiteStatus(suiteRunId: string): void {
  hub.nudge(suiteRunId);
}

/** Suites watched in this process now (tests). */
export function watchedSuites(): number {
  return hub.size();
}
