/** Counts and durations as the pages print them. */

/** "1 step", "2 steps" (the plural form is given when adding "s" is wrong). */
export function countOf(n: number, singular: string, plural = `${singular}s`): string {
  return `${n.toLocaleString('en')} ${n === 1 ? singular : plural}`;
}

/**
 * A run's duration with enough precision to tell runs apart: a scripted run takes well under a
 * millisecond, which rounding to whole milliseconds printed as "0 ms".
 */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '—';
  if (ms < 10) return `${ms.toFixed(2)} ms`;
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}
