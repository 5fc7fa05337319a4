import { describe, expect, it } from 'vitest';
import { suiteEstimate } from './suite-estimate';

describe('suiteEstimate: the time left from the first second', () => {
  it('uses the stored-case rate once there is one', () => {
    expect(suiteEstimate({ etaMs: 30_000, previousMs: 5_000, elapsedMs: 1_000, active: true })).toBe('about 30 s left');
  });

  it('before the first stored case, counts down from how long the last run like it took', () => {
    expect(suiteEstimate({ etaMs: null, previousMs: 41_600, elapsedMs: 1_600, active: true })).toBe('about 40 s left, judging by the last run like it (42 s)');
    expect(suiteEstimate({ etaMs: null, previousMs: 4_000, elapsedMs: 9_000, active: true })).toBe('taking longer than the last run like it (4 s)');
  });

  it('with no history says there is no estimate yet and how long a first run can take, and nothing once finished', () => {
    expect(suiteEstimate({ etaMs: null, previousMs: null, elapsedMs: 0, active: true })).toMatch(/^no estimate until the first runs are stored; a first run takes from a few seconds .+ to about a minute/);
    expect(suiteEstimate({ etaMs: null, previousMs: null, elapsedMs: 0, active: false })).toBeNull();
  });
});
