/** "Replay against…": a stored run, re-run under these settings from its recorded model responses. */
import { z } from 'zod';
import { StoredIdSchema } from './run-id';
import { RunSettingsSchema } from './run-settings';

export const ReplayRunInputSchema = RunSettingsSchema.omit({ datasetId: true, toolServer: true }).extend({ runId: StoredIdSchema });
export type ReplayRunInput = z.output<typeof ReplayRunInputSchema>;
