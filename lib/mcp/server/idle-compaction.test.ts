/**
 * Issue 36: the MCP HTTP server's resident memory stayed 22–38 MiB over its baseline after every
 * session was reaped, all of it V8 heap the load had grown and no collection ever shrank (an idle Node
 * process allocates nothing, so V8 never collects). The server now runs one full collection once its
 * sessions are released and it has gone quiet.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fullCollection, idleCompaction } from './idle-compaction';

afterEach(() => {
  vi.useRealTimers();
});

describe('idle compaction', () => {
  it('collects once after sessions are released and no request came for the quiet time, not before', () => {
    vi.useFakeTimers();
    let t = 0;
    const collect = vi.fn();
    const c = idleCompaction({ collect, quietMs: 1_000, minIntervalMs: 30_000, now: () => t });
    const advance = (ms: number) => {
      t += ms;
      vi.advanceTimersByTime(ms);
    };
    advance(5_000);
    expect(collect).not.toHaveBeenCalled(); // nothing released: nothing to give back
    c.released();
    advance(600);
    c.active(); // a request: not quiet yet
    advance(600);
    expect(collect).not.toHaveBeenCalled();
    advance(500);
    expect(collect).toHaveBeenCalledTimes(2); // one compaction: two collections
    expect(c.count()).toBe(1);
    // Released again at once: held off until the minimum interval since the last one has passed.
    c.released();
    advance(20_000);
    expect(c.count()).toBe(1);
    advance(10_000);
    expect(c.count()).toBe(2);
    c.stop();
  });

  it('does nothing once stopped, or where no collection is available', () => {
    vi.useFakeTimers();
    let t = 0;
    const collect = vi.fn();
    const stopped = idleCompaction({ collect, quietMs: 10, now: () => t });
    stopped.released();
    stopped.stop();
    t += 1_000;
    vi.advanceTimersByTime(1_000);
    expect(collect).not.toHaveBeenCalled();
    const none = idleCompaction({ collect: null, quietMs: 10, now: () => t });
    none.released();
    t += 1_000;
    vi.advanceTimersByTime(1_000);
    expect(none.count()).toBe(0);
  });

  it('reaches V8\'s full collection without --expose-gc, and leaves gc unexposed to the code after it', async () => {
    expect(typeof (globalThis as { gc?: unknown }).gc).toBe('undefined');
    const gc = fullCollection();
    expect(gc).toBeTypeOf('function');
    expect(typeof (globalThis as { gc?: unknown }).gc).toBe('undefined');
    let held: object | null = { payload: new Array(1000).fill('x') };
    const ref = new WeakRef(held);
    held = null;
    // A WeakRef's target is kept through the job that made it; collect in a later one.
    await new Promise((r) => setTimeout(r, 0));
    gc!();
    expect(ref.deref()).toBeUndefined();
  });
});
