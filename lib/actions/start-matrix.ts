'use server';
/** Queues the weakness matrix on a dataset; the page polls the returned suite id. */
import { RunMatrixInputSchema } from '../schemas/run-settings';
import { safeAction } from '../boundary/safe-action';
import { refuseUngovernedIfMandatory } from '../runs/mandatory-governance';
import { startMatrix } from '../runs/suites';
import { getRunQueue } from '../jobs/queue';

export const startMatrixAction = safeAction({
  name: 'startMatrix',
  schema: RunMatrixInputSchema,
  role: 'operator',
  handler: (input, { principal }) => {
    // Suites run without the policy: a tenant whose governance is mandatory cannot start them.
    refuseUngovernedIfMandatory(principal.tenant);
    return startMatrix(input, principal, getRunQueue());
  },
});
