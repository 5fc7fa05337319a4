/**
 * Reviewers' labels: the tenant's label set (verdicts and categories, versioned), what a label
 * records, and the keys the labelling keyboard uses for each label. Safe for the browser (no Node
 * modules); the label's digest is in label-digest.ts.
 */
import { z } from 'zod';

export { currentLabels, keyOfVerdict, type LabelDetail, losesDetail, verdictForKey } from './label-keys';

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
