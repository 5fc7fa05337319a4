'use server';
/** Runs one golden case or one free-text query under the chosen settings and stores the run. */
import { RunOneInputSchema } from '../schemas/run-settings';
import { safeAction } from './safe-action';
import { runOne } from './support/runner';

export const runOneAction = safeAction({
  name: 'runOne',
  schema: RunOneInputSchema,
  role: 'operator',
  handler: (input, { principal }) => runOne(input, principal.id),
});
