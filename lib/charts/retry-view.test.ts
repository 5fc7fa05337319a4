import { describe, expect, it } from 'vitest';
import { formatDuration } from '../format/units';
import { retryView } from './retry-view';

const base = { attempt: 2, reason: 'throttled', delayMs: 1500, detail: '429 slow down' };

describe('retryView', () => {
  it('says which attempt failed, why, and the planned wait', () => {
    const v = retryView(base);
    expect(v.title).toBe(`Attempt ${base.attempt} failed`);
    expect(v.reason).toBe(base.reason);
    expect(v.planned).toContain(formatDuration(base.delayMs));
    expect(v.detail).toBe(base.detail);
  });

  it('says the wait was not recorded when the run has no time for it, never a zero wait', () => {
    const v = retryView(base);
    expect(v.waited).toBe('wait not recorded');
    expect(v.cutShort).toBeNull();
  });

  it('shows the recorded wait: its length, its offset into the run and its wall-clock start', () => {
    const time = { startedAt: '2026-12-02T10:31:23.120Z', endedAt: '2026-12-02T10:31:24.621Z', startMs: 3210, endMs: 3210 + base.delayMs + 1 };
    const v = retryView({ ...base, time });
    expect(v.waited).toContain(formatDuration(time.endMs - time.startMs));
    expect(v.waited).toContain(formatDuration(time.startMs));
    expect(v.waited).toContain(time.startedAt);
    expect(v.cutShort).toBe(false);
  });

  it('marks a recorded wait that ended before the planned one as cut short', () => {
    const time = { startedAt: '2026-12-02T10:31:23.120Z', endedAt: '2026-12-02T10:31:23.420Z', startMs: 3210, endMs: 3210 + base.delayMs / 5 };
    expect(retryView({ ...base, time }).cutShort).toBe(true);
  });

  it('does not invent an attempt number a stored row did not keep', () => {
    expect(retryView({ ...base, attempt: 0 }).title).toBe('An attempt failed');
  });
});
