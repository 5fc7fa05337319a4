/** Inputs of the Judge page and its calibration action. */
import { z } from 'zod';
import { MODEL_PROVIDERS } from '../harness';

/** `fake` or `provider:model` (the same names as `--judge`). */
export const JudgeNameSchema = z
  .string()
  .trim()
  .min(1, 'choose a judge')
  .max(200)
  .refine((v) => v === 'fake' || MODEL_PROVIDERS.some((p) => v.startsWith(`${p}:`) && v.length > p.length + 1), {
    message: `a judge is fake or ${MODEL_PROVIDERS.map((p) => `${p}:<model>`).join(', ')}`,
  });

export const RunCalibrationInputSchema = z.object({
  judge: JudgeNameSchema,
  /** `file`: the course's calibration set; `labels`: the runs this tenant's reviewers labelled pass or fail. */
  source: z.enum(['file', 'labels']).default('file'),
});
export type RunCalibrationInput = z.output<typeof RunCalibrationInputSchema>;

/** `/judge?id=…`: which stored calibration to show (the newest when absent or unreadable). */
export const JudgePageQuerySchema = z.object({
  id: z
    .string()
    .trim()
    .max(80)
    .regex(/^[A-Za-z0-9_-]+$/)
    .optional()
    .catch(undefined),
});
