/**
 * The open MCP sessions of one endpoint (the CLI's HTTP server, or the dashboard's /api/mcp in one
 * web process), each bound to the caller that opened it: only that caller may use it, and another
 * caller's session id is answered exactly like one that does not exist. A caller holds at most
 * `maxPerOwner` sessions (past that a new one is refused, so one caller opening sessions in a loop
 * is turned away without evicting anyone else's); a full table closes the least recently used
 * session of whoever holds the most. A session unused for `idleMs` is closed by a timer, unless it
 * follows something (a run it subscribed to) and a stream of it is open to be told on.
 *
 * An open stream alone does not keep a session: the MCP SDK's client opens its GET stream right
 * after initialize whether or not it will ever be sent anything, so every quiet SDK client kept its
 * session, server and environment until it disconnected (issue 36: 100 quiet clients, none reaped,
 * their sessions' memory held).
 */

/** Open sessions at once; beyond it the biggest holder's least recently used session is closed. */
export const MAX_SESSIONS = 256;
/** Sessions one caller (one credential, or one address without credentials) may hold at once. */
export const MAX_SESSIONS_PER_CLIENT = 32;
/** A session unused this long is closed by the reaper (clients such as the Inspector never DELETE). */
export const SESSION_IDLE_MS = 5 * 60_000;
/** How often the reaper looks for idle sessions, at most (a shorter idle limit checks more often). */
export const REAP_INTERVAL_MS = 30_000;

interface Entry<S> {
  session: S;
  /** Who opened it; nobody else may use it. */
  owner: string;
  lastUsed: number;
  /** Streams of it open now (a GET stream for notifications): while any is and it follows something, it is not idle. */
  streams: number;
}

export interface SessionTableOptions<S> {
  /** Ends a session the table drops (reaped, evicted, closed at shutdown). */
  close: (session: S) => Promise<void>;
  /**
   * Whether the session waits to be told of something it asked for (it follows a run): only then
   * does an open stream keep it from being idle. Absent: nothing is followed, streams keep no one.
   */
  follows?: (session: S) => boolean;
  /** Told each time a session leaves the table (closed by it, or forgotten after it ended by itself). */
  released?: () => void;
  maxSessions?: number;
  maxPerOwner?: number;
  idleMs?: number;
}

export class SessionTable<S> {
  private readonly entries = new Map<string, Entry<S>>();
  private readonly maxSessions: number;
  private readonly maxPerOwner: number;
  readonly idleMs: number;
  private readonly reaper: ReturnType<typeof setInterval>;

  constructor(private readonly options: SessionTableOptions<S>) {
    this.maxSessions = options.maxSessions ?? MAX_SESSIONS;
    this.maxPerOwner = options.maxPerOwner ?? MAX_SESSIONS_PER_CLIENT;
    this.idleMs = options.idleMs ?? SESSION_IDLE_MS;
    this.reaper = setInterval(() => this.reapIdle(), Math.max(1_000, Math.min(REAP_INTERVAL_MS, this.idleMs)));
    this.reaper.unref?.();
  }

  /** Seconds a refused caller is told to wait (an idle session of theirs may be reaped by then). */
  get retryAfterSeconds(): number {
    return Math.ceil(Math.min(this.idleMs, REAP_INTERVAL_MS) / 1000);
  }

  /** The session `id` when `owner` opened it, marked used; another owner's is undefined, like an unknown id. */
  use(id: string, owner: string): S | undefined {
    const entry = this.entries.get(id);
    if (!entry || entry.owner !== owner) return undefined;
    entry.lastUsed = Date.now();
    return entry.session;
  }

  /**
   * Makes room for a new session of `owner`, or says why not: an owner at its own cap is refused; a
   * full table closes the least recently used session of whoever holds the most.
   */
  admit(owner: string): string | null {
    this.reapIdle();
    const held = this.heldBy(owner).length;
    if (held >= this.maxPerOwner) {
      return `this client already holds ${held} sessions (at most ${this.maxPerOwner}); end one with DELETE or wait until an idle one is reaped`;
    }
    if (this.entries.size >= this.maxSessions) {
      const counts = new Map<string, number>();
      for (const e of this.entries.values()) counts.set(e.owner, (counts.get(e.owner) ?? 0) + 1);
      const biggest = [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
      const id = biggest === undefined ? undefined : this.oldest(this.heldBy(biggest));
      if (id) this.close(id);
    }
    return null;
  }

  add(id: string, owner: string, session: S): void {
    this.entries.set(id, { session, owner, lastUsed: Date.now(), streams: 0 });
  }

  /** Forgets a session that ended by itself (DELETE, its transport closed); does not close it. */
  forget(id: string): void {
    if (this.entries.delete(id)) this.options.released?.();
  }

  /** Drops and closes a session. */
  close(id: string): void {
    const entry = this.entries.get(id);
    if (!entry) return;
    this.entries.delete(id);
    void this.options
      .close(entry.session)
      .catch(() => undefined)
      .finally(() => this.options.released?.());
  }

  /** Marks a stream of the session open; the returned release marks it closed (and the session used then). */
  hold(id: string): () => void {
    const entry = this.entries.get(id);
    if (!entry) return () => undefined;
    entry.streams++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      entry.streams--;
      entry.lastUsed = Date.now();
    };
  }

  /** Closes the sessions unused since `now - idleMs`, but those listening on a stream for what they follow; returns how many. */
  reapIdle(now = Date.now()): number {
    const cutoff = now - this.idleMs;
    const listening = (e: Entry<S>) => e.streams > 0 && this.options.follows?.(e.session) === true;
    const idle = [...this.entries].filter(([, e]) => e.lastUsed < cutoff && !listening(e)).map(([id]) => id);
    for (const id of idle) this.close(id);
    return idle.length;
  }

  size(): number {
    return this.entries.size;
  }

  /** Stops the reaper and closes every session. */
  async closeAll(): Promise<void> {
    clearInterval(this.reaper);
    const all = [...this.entries.values()];
    this.entries.clear();
    await Promise.allSettled(all.map((e) => this.options.close(e.session)));
  }

  private heldBy(owner: string): [string, Entry<S>][] {
    return [...this.entries].filter(([, e]) => e.owner === owner);
  }

  /** The least recently used session among `candidates`. */
  private oldest(candidates: Iterable<[string, Entry<S>]>): string | undefined {
    let found: [string, number] | undefined;
    for (const [id, e] of candidates) if (!found || e.lastUsed < found[1]) found = [id, e.lastUsed];
    return found?.[0];
  }
}
