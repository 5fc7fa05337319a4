'use server';
/**
 * Runs one golden case or one free-text query under the chosen settings, without the policy, on a
 * dataset of the caller's tenant, and stores the run there. Refused when the tenant's governance is mandatory.
 */
import { RunOneInputSchema } from '../schemas/run-settings';
import { safeAction } from '../boundary/safe-action';
import { refuseUngovernedIfMandatory } from '../runs/mandatory-governance';
import { runOne } from '../runs/single';

export const runOneAction = safeAction({
  name: 'runOne',
  schema: RunOneInputSchema,
  role: 'operator',
  handler: (input, { principal }) => {
    refuseUngovernedIfMandatory(principal.tenant);
    return runOne(input, principal);
  },
});
