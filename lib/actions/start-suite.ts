'use server';
/** Queues the golden suite under one setting; the page polls the returned suite id. */
import { RunSuiteInputSchema } from '../schemas/run-settings';
import { safeAction } from '../boundary/safe-action';
import { refuseUngovernedIfMandatory } from '../runs/mandatory-governance';
import { startSuite } from '../runs/suites';
import { getRunQueue } from '../jobs/queue';

export const startSuiteAction = safeAction({
  name: 'startSuite',
  schema: RunSuiteInputSchema,
  role: 'operator',
  handler: (input, { principal }) => {
    // Suites run without the policy: a tenant whose governance is mandatory cannot start them.
    refuseUngovernedIfMandatory(principal.tenant);
    return startSuite(input, principal, getRunQueue());
  },
});
