/**
 * The compare page's choices, shaped: the settings a case can be compared under (no weakness and each
 * flag of the weakness table alone), their words, and which side of a pair left its recording.
 */
import type { TrajectoryStep, WeaknessFlag } from '../harness';
import { WEAKNESS_ORDER } from '../stockroom/browser';
import { divergenceOf, type Divergence } from './divergence';

/** The settings one can compare a case under: no weakness and each flag alone, in the table's order. */
export const COMPARE_SETTINGS: readonly string[] = ['none', ...WEAKNESS_ORDER];

/** A `?with=` value that names one of the settings, else null. */
export const compareSettingOf = (v: string | null): string | null => (v && COMPARE_SETTINGS.includes(v) ? v : null);

/** A setting in words: `none` is "no weakness". */
export const settingWords = (setting: string): string => (setting === 'none' ? 'no weakness' : setting);

/** The weakness flags of a setting (`a+b` for a stored combination; `none`: no flag). */
export const settingFlags = (setting: string): WeaknessFlag[] => (setting === 'none' ? [] : (setting.split('+') as WeaknessFlag[]));

/** The side of a pair that diverged from its recording (B looked at first), with the other side's label. */
export function replayedSide(a: readonly TrajectoryStep[], b: readonly TrajectoryStep[]): { side: 'A' | 'B'; other: 'A' | 'B'; d: Divergence } | null {
  const inB = divergenceOf(b);
  if (inB) return { side: 'B', other: 'A', d: inB };
  const inA = divergenceOf(a);
  return inA ? { side: 'A', other: 'B', d: inA } : null;
}
