/**
 * The session table both MCP HTTP endpoints keep (the CLI server, /api/mcp): a session is its
 * owner's alone, a caller past its cap is refused without anyone being evicted, a full table
 * closes the biggest holder's least recently used session, and an idle session is reaped unless it
 * follows something and a stream of it is open to be told on.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SessionTable } from './session-table';

describe('SessionTable', () => {
  const tables: SessionTable<string>[] = [];
  const table = (options: { maxSessions?: number; maxPerOwner?: number; idleMs?: number } = {}) => {
    const closed: string[] = [];
    const t = new SessionTable<string>({ close: async (s) => void closed.push(s), ...options });
    tables.push(t);
    return { t, closed };
  };
  afterEach(async () => {
    vi.useRealTimers();
    await Promise.all(tables.splice(0).map((t) => t.closeAll()));
  });

  it("gives a session to its owner only: another owner's lookup is the same as an unknown id", () => {
    const { t } = table();
    t.add('s1', 'alice', 'session-1');
    expect(t.use('s1', 'alice')).toBe('session-1');
    expect(t.use('s1', 'bob')).toBeUndefined();
    expect(t.use('nope', 'alice')).toBeUndefined();
  });

  it('refuses an owner at its cap, naming the cap, and evicts no one', () => {
    const { t, closed } = table({ maxPerOwner: 2 });
    t.add('a1', 'alice', 'a1');
    t.add('a2', 'alice', 'a2');
    t.add('b1', 'bob', 'b1');
    expect(t.admit('alice')).toMatch(/already holds 2 sessions \(at most 2\)/);
    expect(t.admit('bob')).toBeNull();
    expect(closed).toEqual([]);
    expect(t.size()).toBe(3);
  });

  it("makes room in a full table by closing the biggest holder's least recently used session", () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const { t, closed } = table({ maxSessions: 3, maxPerOwner: 3 });
    t.add('a1', 'alice', 'a1');
    t.add('a2', 'alice', 'a2');
    t.add('b1', 'bob', 'b1');
    // a1 used since: a2 is alice's least recently used.
    vi.setSystemTime(Date.now() + 1_000);
    t.use('a1', 'alice');
    expect(t.admit('carol')).toBeNull();
    expect(closed).toEqual(['a2']);
    expect(t.use('b1', 'bob')).toBe('b1');
  });

  it('reaps a session idle past the limit, but not one that follows something while a stream of it is open', () => {
    const following = new Set(['listening']);
    const closed: string[] = [];
    const t = new SessionTable<string>({ close: async (s) => void closed.push(s), follows: (s) => following.has(s), idleMs: 60_000 });
    tables.push(t);
    t.add('quiet', 'alice', 'quiet');
    t.add('listening', 'alice', 'listening');
    const release = t.hold('listening');
    expect(t.reapIdle(Date.now() + 30_000)).toBe(0);
    expect(t.reapIdle(Date.now() + 60_001)).toBe(1);
    expect(closed).toEqual(['quiet']);
    release();
    expect(t.reapIdle(Date.now() + 60_001)).toBe(1);
    expect(closed).toEqual(['quiet', 'listening']);
  });

  it('reaps an idle session whose stream is open when it follows nothing (observed: every quiet SDK client, whose GET stream opens by itself, was kept)', () => {
    const { t, closed } = table({ idleMs: 60_000 });
    t.add('quiet-sdk-client', 'alice', 'quiet-sdk-client');
    t.hold('quiet-sdk-client');
    expect(t.reapIdle(Date.now() + 60_001)).toBe(1);
    expect(closed).toEqual(['quiet-sdk-client']);
    expect(t.size()).toBe(0);
  });

  it('stops holding a session on its stream once it follows nothing more', () => {
    const following = new Set(['s1']);
    const t = new SessionTable<string>({ close: async () => undefined, follows: (s) => following.has(s), idleMs: 60_000 });
    tables.push(t);
    t.add('s1', 'alice', 's1');
    t.hold('s1');
    expect(t.reapIdle(Date.now() + 60_001)).toBe(0);
    following.delete('s1');
    expect(t.reapIdle(Date.now() + 60_001)).toBe(1);
  });
});
