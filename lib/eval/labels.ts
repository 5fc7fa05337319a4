/**
 * Reviewers' labels: the tenant's label set (verdicts and categories, versioned), what a label
 * records, and the keys the labelling keyboard uses for each label. Safe for the browser (no Node
 * modules); the label's digest is in label-digest.ts.
 */
import { z } from 'zod';

/** A label value: short, lower-case words joined by `_` or `-`. */
const LabelValueSchema = z
  .string()
  .trim()
  .min(1, 'a label needs a name')
  .max(40, 'at most 40 characters')
  .regex(/^[a-z0-9][a-z0-9_-]*$/, 'lower-case letters, digits, _ and - only');

/** A tenant's label set: the verdicts a reviewer chooses from (pass/fail at least) and optional categories. */
export const LabelSetSchema = z
  .object({
    verdicts: z.array(LabelValueSchema).min(2, 'a label set needs at least two verdicts').max(9, 'at most 9 verdicts (keys 1-9)'),
    categories: z.array(LabelValueSchema).max(20, 'at most 20 categories'),
  })
  .refine((s) => s.verdicts.includes('pass') && s.verdicts.includes('fail'), { message: 'the verdicts must include pass and fail', path: ['verdicts'] })
  .refine((s) => new Set([...s.verdicts, ...s.categories]).size === s.verdicts.length + s.categories.length, {
    message: 'a name appears twice',
    path: ['categories'],
  });
export type LabelSet = z.infer<typeof LabelSetSchema>;

/** The label set of a tenant that has not configured one (version 0, never stored). */
export const DEFAULT_LABEL_SET: LabelSet = {
  verdicts: ['pass', 'fail'],
  categories: ['wrong_tool', 'wrong_arguments', 'unsupported_fact', 'incomplete', 'prompt_leak', 'unsafe_write'],
};

/** What a label says, as recorded (the digest covers exactly these fields). */
export interface LabelContent {
  runId: string;
  /** null: the run as a whole. */
  step: number | null;
  labelSetVersion: number;
  verdict: string;
  category: string | null;
  score: number | null;
  comment: string;
  createdBy: string;
  createdAt: string;
}

/** Why a label does not fit `set`, naming the field; null when it fits. */
export function labelProblem(set: LabelSet, label: Pick<LabelContent, 'verdict' | 'category'>): { field: string; message: string } | null {
  if (!set.verdicts.includes(label.verdict)) return { field: 'verdict', message: `verdict '${label.verdict}' is not in the label set (${set.verdicts.join(', ')})` };
  if (label.category !== null && !set.categories.includes(label.category))
    return {
      field: 'category',
      message: set.categories.length ? `category '${label.category}' is not in the label set (${set.categories.join(', ')})` : 'category: this label set has no categories',
    };
  return null;
}

/** The labelling keyboard: digits 1-9 choose a verdict in set order. */
export function verdictForKey(set: LabelSet, key: string): string | null {
  if (!/^[1-9]$/.test(key)) return null;
  return set.verdicts[Number(key) - 1] ?? null;
}

/** The key of each verdict (`1` for the first). */
export function keyOfVerdict(set: LabelSet, verdict: string): string | null {
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
