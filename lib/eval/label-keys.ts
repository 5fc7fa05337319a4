/**
 * What the labelling pages do with a label set in the browser: the keys of the verdicts, the current
 * label of each step, whether a new label would drop a reviewer's words. No schema here, so a page's
 * client bundle that labels does not load zod (./labels.ts holds the label set's schema and re-exports these).
 */

/** The part of a label set (./labels.ts `LabelSet`) the keyboard reads: its verdicts, in order. */
export interface VerdictList {
  verdicts: readonly string[];
}

/** The labelling keyboard: digits 1-9 choose a verdict in set order. */
export function verdictForKey(set: VerdictList, key: string): string | null {
  if (!/^[1-9]$/.test(key)) return null;
  return set.verdicts[Number(key) - 1] ?? null;
}

/** The key of each verdict (`1` for the first). */
export function keyOfVerdict(set: VerdictList, verdict: string): string | null {
  const i = set.verdicts.indexOf(verdict);
  return i >= 0 && i < 9 ? String(i + 1) : null;
}

/** The current label of each (run, step): the newest; older ones are history (kept, shown as superseded). */
export function currentLabels<T extends { runId: string; step: number | null; createdAt: string; id: string }>(labels: readonly T[]): T[] {
  const newest = new Map<string, T>();
  for (const l of labels) {
    const key = `${l.runId}\u0000${l.step ?? ''}`;
    const seen = newest.get(key);
    if (!seen || l.createdAt > seen.createdAt || (l.createdAt === seen.createdAt && l.id > seen.id)) newest.set(key, l);
  }
  return [...newest.values()];
}

/** What a new label would carry beyond its verdict. */
export interface LabelDetail {
  category: string | null;
  score: number | null;
  comment: string;
}

/**
 * Whether storing `next` over `current` would drop what a reviewer wrote: the current label has a
 * category, score or comment that the new one leaves out. A bare label key must not do that silently
 * (issue 43: `2` on the slider replaced "fail · wrong_arguments" and its comment with a bare "fail").
 */
export function losesDetail(current: LabelDetail | null, next: LabelDetail): boolean {
  if (!current) return false;
  return (current.category !== null && next.category === null) || (current.score !== null && next.score === null) || (current.comment.trim() !== '' && next.comment.trim() === '');
}
