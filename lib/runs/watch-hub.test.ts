/**
 * The watch hub's nudge (issue 36, the first demo): this process wrote the row and asks for it to be
 * read now. A nudge that came while a read was in flight was dropped, and that read could have started
 * before the write: the watchers learned of it only at the next tick.
 */
import { describe, expect, it } from 'vitest';
import { createWatchHub } from './watch-hub';

interface Row {
  status: string;
}

describe('watch hub', () => {
  it('reads again after an in-flight read when nudged meanwhile, without waiting for the next tick', async () => {
    // A tick an hour apart: only the first read and the nudge can tell the watcher anything here.
    const hub = createWatchHub<Row>({ pollMs: 3_600_000, live: (r) => r.status !== 'done' });
    let stored: Row = { status: 'running' };
    let release: (() => void) | null = null;
    let reads = 0;
    const read = async () => {
      reads++;
      const seen = { ...stored }; // what the row held when the read started
      if (reads === 1) await new Promise<void>((r) => (release = r));
      return seen;
    };
    const told: Array<[string, boolean]> = [];
    const stop = hub.watch('s1', (value, ended) => told.push([value?.status ?? 'gone', ended]), read);
    await expect.poll(() => release).not.toBeNull();
    // The writer (this process) finishes the row while the first read is still in flight, and nudges.
    stored = { status: 'done' };
    hub.nudge('s1');
    release!();
    await expect.poll(() => told, { timeout: 2_000 }).toEqual([
      ['running', false],
      ['done', true],
    ]);
    expect(reads).toBe(2);
    expect(hub.size()).toBe(0);
    stop();
    hub.reset();
  });

  it('a nudge with no read in flight reads at once; one on a row nobody watches does nothing', async () => {
    const hub = createWatchHub<Row>({ pollMs: 3_600_000, live: (r) => r.status !== 'done' });
    let stored: Row = { status: 'running' };
    let reads = 0;
    const told: string[] = [];
    hub.watch('s2', (value) => told.push(value?.status ?? 'gone'), async () => (reads++, { ...stored }));
    await expect.poll(() => told).toEqual(['running']);
    stored = { status: 'done' };
    hub.nudge('s2');
    hub.nudge('nobody');
    await expect.poll(() => told).toEqual(['running', 'done']);
    expect(reads).toBe(2);
    hub.reset();
  });
});
