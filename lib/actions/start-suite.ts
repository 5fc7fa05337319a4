'use server';
/** Queues the golden suite under one setting; the page polls the returned suite id. */
import { RunSuiteInputSchema } from '../schemas/run-settings';
import { safeAction } from './safe-action';
import { startSuite } from './support/runner';

export const startSuiteAction = safeAction({
  name: 'startSuite',
  schema: RunSuiteInputSchema,
  role: 'operator',
  handler: (input, { principal }) => startSuite(input, principal.id),
});
