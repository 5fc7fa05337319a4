import { describe, expect, it } from 'vitest';
import { backfillProgress } from './backfill-progress';

describe('backfill progress', () => {
  it('says what is not counted yet, and names skipped and handed-over runs only when there are some', () => {
    expect(backfillProgress({ total: null, scanned: 0, scored: 0, skipped: 0, queued: 0 })).toBe('counting the runs… · 0 scored');
    expect(backfillProgress({ total: 250, scanned: 200, scored: 150, skipped: 49, queued: 1 })).toBe(
      "200 of 250 runs · 150 scored · 49 skipped (scored by this version already, or outside a judge's sample) · 1 never rolled up, handed to the watch job",
    );
  });
});
