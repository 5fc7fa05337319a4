/** How an interval reads in the CLI and on the pages: `[0.81, 0.98]`, and a delta's verdict as a mark. */
import type { PairedDelta } from './paired-deltas';

const num = (x: number): string => (Math.abs(x) >= 100 ? x.toFixed(0) : Math.abs(x) >= 10 ? x.toFixed(1) : x.toFixed(2));

export function formatInterval(iv: { low: number; high: number }): string {
  return `[${num(iv.low)}, ${num(iv.high)}]`;
}

/** The mark of a delta: `*` distinguishable from `none` after correction, `~` moved within noise, `=` unchanged; exact (deterministic) changes carry no mark. */
export function deltaMark(d: Pick<PairedDelta, 'verdict' | 'test'>): string {
  if (d.test === 'none_deterministic') return '';
  return d.verdict === 'higher' || d.verdict === 'lower' ? '*' : d.verdict === 'indistinguishable' ? '~' : '=';
}

/** Words for a verdict, so "not distinguishable from none" never reads as "unchanged". */
export const VERDICT_WORDS: Record<PairedDelta['verdict'], string> = {
  higher: 'higher than none (significant)',
  lower: 'lower than none (significant)',
  indistinguishable: 'not distinguishable from none',
  unchanged: 'unchanged',
};
