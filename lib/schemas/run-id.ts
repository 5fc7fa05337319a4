/** Ids of stored runs and suites as they arrive from the browser (the data layer's time-ordered hex ids). */
import { z } from 'zod';

export const StoredIdSchema = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/, 'not an id');

export const DeleteRunInputSchema = z.object({ runId: StoredIdSchema });
export type DeleteRunInput = z.output<typeof DeleteRunInputSchema>;

export const EraseRunInputSchema = z.object({ runId: StoredIdSchema });
export type EraseRunInput = z.output<typeof EraseRunInputSchema>;
