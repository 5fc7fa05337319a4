import 'server-only';
/**
 * One poller per watched row in this process, however many pages watch it: it reads the row every
 * pollMs (one small indexed read) and tells each watcher when what it read changed. The writer may
 * be another process (a worker, a CLI), so the row is the source, not an in-process event. Used for
 * a run's progress (progress-hub.ts) and a suite's status (suite-status-hub.ts).
 */
import { NotFoundError } from '../db/core';

/** Told each value (null: gone) and whether it is the last: the row is gone or says it has ended. */
export type Watcher<T> = (value: T | null, ended: boolean) => void;

interface Poller<T> {
  read: (id: string) => Promise<T | null>;
  watchers: Set<Watcher<T>>;
  last: string | null;
  latest: T | null;
  timer: NodeJS.Timeout;
  /** A nudge came while a read was in flight: that read may predate the write, so read once more after it. */
  again: boolean;
}

export interface WatchHub<T> {
  /**
   * Calls `watcher` with the row now and whenever it changes; with null when it is gone (deleted, or
   * it cannot be read). Stops by itself once the row says it has ended, telling the watcher so (the
   * hub is the one place that decides liveness). Returns the unsubscribe.
   * `read` reads the row (null, or a NotFoundError thrown, when it is gone); the first watcher's is the poller's.
   */
  watch(id: string, watcher: Watcher<T>, read: (id: string) => Promise<T | null>): () => void;
  /**
   * Reads a watched row now instead of at the next tick: this process just wrote it (a run the web
   * server runs itself). Writers in other processes are seen at the next tick.
   */
  nudge(id: string): void;
  /** Rows watched now (tests). */
  size(): number;
  /** For tests: forget every poller. */
  reset(): void;
}

/** A read that throws NotFoundError says the row is gone; any other error is tried again on the next tick. */
export function createWatchHub<T>(options: { pollMs: number; live: (value: T) => boolean }): WatchHub<T> {
  const pollers = new Map<string, Poller<T>>();
  let reading = new WeakSet<Poller<T>>();

  const stop = (id: string, p: Poller<T>) => {
    clearInterval(p.timer);
    if (pollers.get(id) === p) pollers.delete(id);
  };

  const tick = async (id: string, p: Poller<T>, read: (id: string) => Promise<T | null>) => {
    // A slow read (a database restarting) is not stacked up behind by the next tick.
    if (reading.has(p)) return;
    p.again = false;
    reading.add(p);
    try {
      let value: T | null;
      try {
        value = await read(id);
      } catch (err) {
        // Gone (deleted, erased by retention): say so. The database unreachable: try again next tick.
        if (err instanceof NotFoundError) value = null;
        else return;
      }
      const key = value === null ? null : JSON.stringify(value);
      if (key === p.last && value !== null) return;
      p.last = key;
      p.latest = value;
      const ended = value === null || !options.live(value);
      for (const w of [...p.watchers]) w(value, ended);
      if (ended) stop(id, p);
    } finally {
      reading.delete(p);
      if (p.again && pollers.get(id) === p) void tick(id, p, read);
    }
  };

  return {
    watch(id, watcher, read) {
      let poller = pollers.get(id);
      if (!poller) {
        const p: Poller<T> = { read, watchers: new Set(), last: null, latest: null, again: false, timer: setInterval(() => void tick(id, p, read), options.pollMs) };
        p.timer.unref?.();
        pollers.set(id, p);
        poller = p;
        void tick(id, p, read);
      } else if (poller.latest) {
        watcher(poller.latest, false);
      }
      poller.watchers.add(watcher);
      const mine = poller;
      return () => {
        mine.watchers.delete(watcher);
        if (mine.watchers.size === 0) stop(id, mine);
      };
    },
    nudge(id) {
      const p = pollers.get(id);
      if (!p) return;
      // A read already in flight may have started before this process's write: it is read again after it,
      // not left to the next tick (a suite's end reached the first demo's page up to a tick late).
      if (reading.has(p)) p.again = true;
      else void tick(id, p, p.read);
    },
    size: () => pollers.size,
    reset() {
      for (const [id, p] of pollers) stop(id, p);
      reading = new WeakSet();
    },
  };
}
