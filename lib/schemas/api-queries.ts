/** Query and path parameters of the dashboard's read endpoints (app/api/runs, app/api/suites). */
import { z } from 'zod';
import { StoredIdSchema } from './run-id';

const int = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

export const RunStepsQuerySchema = z
  .object({ id: StoredIdSchema, fromStep: int(0, 10_000_000), toStep: int(0, 10_000_000) })
  .refine((q) => q.toStep >= q.fromStep && q.toStep - q.fromStep <= 1000, { message: 'at most 1000 steps per request', path: ['toStep'] });

export const ModelInputQuerySchema = z.object({ id: StoredIdSchema, call: int(0, 10_000_000) });

export const ToolResultQuerySchema = z.object({ id: StoredIdSchema, index: int(0, 100_000_000) });

export const SuiteQuerySchema = z.object({ id: StoredIdSchema });

/** A run's waterfall: one page of its bars (`page`, 0 when absent) or `all` of them. */
export const WaterfallQuerySchema = z.object({ id: StoredIdSchema, page: z.union([z.literal('all'), int(0, 1_000_000)]).default(0) });

/** A suite's statistics: a matrix against its `none`, or (instructor mode) a suite against the baseline suite `against`. */
export const SuiteStatisticsQuerySchema = SuiteQuerySchema.extend({ against: StoredIdSchema.optional() });

/** A suite's poll: `partial=0` leaves out the per-setting metrics over the stored cases (progress only, cheaper to answer while cases run). */
export const SuitePollQuerySchema = SuiteQuerySchema.extend({ partial: z.enum(['0', '1']).optional() });

export const MovedCasesQuerySchema = z.object({
  id: StoredIdSchema,
  setting: z.string().regex(/^[a-z_+]{1,200}$/),
  metric: z.string().regex(/^[a-z_]{1,64}$/),
  /** Only the cases of this category (a per-category cell). */
  category: z.string().regex(/^[a-z_]{1,64}$/).optional(),
});

/** Cancelling a queued or running suite or matrix. */
export const CancelSuiteInputSchema = z.object({ id: StoredIdSchema });
export const StopRunInputSchema = z.object({ id: StoredIdSchema });
