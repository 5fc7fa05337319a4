import { describe, expect, it } from 'vitest';
import type { TrajectoryStep } from '../harness/types';
import { COMPARE_SETTINGS, compareSettingOf, replayedSide, settingFlags, settingWords } from './compare-view';

const diverged = (step: number): TrajectoryStep => ({ kind: 'guard', step, guard: 'replay', reason: 'DIVERGED', detail: `model call ${step} differs` }) as TrajectoryStep;

describe("the compare page's choices", () => {
  it('offers no weakness and each flag of the weakness table alone, in its order', () => {
    expect(COMPARE_SETTINGS).toEqual(['none', 'ambiguous_tool_desc', 'oversized_payload', 'naive_retry', 'injection_unguarded']);
  });

  it('takes a ?with= value only when it names one of those settings', () => {
    expect(compareSettingOf('naive_retry')).toBe('naive_retry');
    expect(compareSettingOf('none')).toBe('none');
    expect(compareSettingOf('slow_disk')).toBeNull();
    expect(compareSettingOf(null)).toBeNull();
  });

  it('says none as "no weakness", and reads a setting as its flags', () => {
    expect(settingWords('none')).toBe('no weakness');
    expect(settingWords('naive_retry')).toBe('naive_retry');
    expect(settingFlags('none')).toEqual([]);
    expect(settingFlags('naive_retry+oversized_payload')).toEqual(['naive_retry', 'oversized_payload']);
  });

  it('names the side that left its recording, B first, and null when neither did', () => {
    expect(replayedSide([diverged(2)], [diverged(3)])).toMatchObject({ side: 'B', other: 'A', d: { step: 3 } });
    expect(replayedSide([diverged(2)], [])).toMatchObject({ side: 'A', other: 'B', d: { step: 2 } });
    expect(replayedSide([], [])).toBeNull();
  });
});
