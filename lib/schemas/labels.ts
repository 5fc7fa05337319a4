/** Inputs of the labelling actions (a label, the tenant's label set) and the labelling queue's address. */
import { z } from 'zod';
import { LabelSetSchema } from '../eval';
import { StoredIdSchema } from './run-id';

/** Longest comment a reviewer may leave. */
export const MAX_LABEL_COMMENT = 2_000;

export const AddLabelInputSchema = z.object({
  runId: StoredIdSchema,
  /** null or absent: the run as a whole. */
  step: z.number().int().min(0, 'a step is 0 or more').max(1_000_000).nullable().default(null),
  verdict: z.string().trim().min(1, 'choose a verdict').max(40),
  category: z
    .string()
    .trim()
    .max(40)
    .nullable()
    .default(null)
    .transform((v) => (v === '' ? null : v)),
  score: z.number().min(0, 'a score is between 0 and 1').max(1, 'a score is between 0 and 1').nullable().default(null),
  comment: z.string().max(MAX_LABEL_COMMENT, `at most ${MAX_LABEL_COMMENT} characters`).default(''),
});
export type AddLabelInput = z.output<typeof AddLabelInputSchema>;

export const SaveLabelSetInputSchema = LabelSetSchema;

/** The label filter of the runs list and the queue: `yes` (has a label), `no` (has none). */
export const LabelledFilterSchema = z.enum(['yes', 'no']);
