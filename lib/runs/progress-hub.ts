import 'server-only';
/**
 * Live progress of runs for the pages following them (server-sent events). One poller per run in
 * this process, however many pages watch it: it reads the run's progress row every PROGRESS_POLL_MS
 * (one small indexed read) and tells each watcher when it changed. The writer may be another process
 * (a worker, a CLI `run --save`), so the row is the source, not an in-process event.
 */
import { getDb, type Database } from '../db/client';
import { getRunProgressOrThrow, type RunProgressDto } from '../db/run-progress';
import { isLiveStatus } from '../format';
import { NotFoundError } from '../db/errors';

/** How often a watched run's progress row is read. */
export const PROGRESS_POLL_MS = 100;

type Watcher = (progress: RunProgressDto | null) => void;

interface Poller {
  db: Database;
  watchers: Set<Watcher>;
  last: string | null;
  latest: RunProgressDto | null;
  timer: NodeJS.Timeout;
}

const pollers = new Map<string, Poller>();

/**
 * Calls `watcher` with the run's progress now and whenever it changes; with null when the run is gone
 * (deleted, or it cannot be read). Stops by itself once the run has ended. Returns the unsubscribe.
 */
export function watchRunProgress(runId: string, watcher: Watcher, db: Database = getDb()): () => void {
  let poller = pollers.get(runId);
  if (!poller) {
    const p: Poller = { db, watchers: new Set(), last: null, latest: null, timer: setInterval(() => void tick(runId, p, db), PROGRESS_POLL_MS) };
    p.timer.unref?.();
    pollers.set(runId, p);
    poller = p;
    void tick(runId, p, db);
  } else if (poller.latest) {
    watcher(poller.latest);
  }
  poller.watchers.add(watcher);
  const mine = poller;
  return () => {
    mine.watchers.delete(watcher);
    if (mine.watchers.size === 0) stopPoller(runId, mine);
  };
}

/**
 * Reads a watched run's progress now instead of at the next tick: its record was just stored by this
 * process (a run the web server runs itself). Writers in other processes are seen at the next tick.
 */
export function nudgeRunProgress(runId: string): void {
  const p = pollers.get(runId);
  if (p) void tick(runId, p, p.db);
}

let reading = new WeakSet<Poller>();

async function tick(runId: string, p: Poller, db: Database): Promise<void> {
  // A slow read (a database restarting) is not stacked up behind by the next tick.
  if (reading.has(p)) return;
  reading.add(p);
  try {
    let progress: RunProgressDto | null;
    try {
      progress = await getRunProgressOrThrow(runId, db);
    } catch (err) {
      // Gone (deleted, erased by retention): say so. The database unreachable: try again next tick.
      if (err instanceof NotFoundError) progress = null;
      else return;
    }
    const key = progress === null ? null : JSON.stringify(progress);
    if (key === p.last && progress !== null) return;
    p.last = key;
    p.latest = progress;
    for (const w of [...p.watchers]) w(progress);
    if (progress === null || !isLiveStatus(progress.status)) stopPoller(runId, p);
  } finally {
    reading.delete(p);
  }
}

function stopPoller(runId: string, p: Poller): void {
  clearInterval(p.timer);
  if (pollers.get(runId) === p) pollers.delete(runId);
}

/** Runs watched in this process now (tests). */
export function watchedRuns(): number {
  return pollers.size;
}

/** For tests: forget every poller. */
export function resetProgressHub(): void {
  for (const [id, p] of pollers) stopPoller(id, p);
  reading = new WeakSet();
}
