'use server';
/**
 * Runs one golden case or one free-text query under the chosen settings, without the policy, on a
 * dataset of the caller's tenant, and stores the run there. Refused when the tenant's governance is mandatory.
 */
import { RunOneInputSchema } from '../schemas/run-settings';
import { safeAction } from '../boundary/safe-action';
import { refuseUngovernedIfMandatory } from '../runs/mandatory-governance';
import { runOne } from '../runs/single';
import { pokeWatch } from '../jobs/queue';

export const runOneAction = safeAction({
  name: 'runOne',
  schema: RunOneInputSchema,
  role: 'operator',
  handler: async (input, { principal }) => {
    refuseUngovernedIfMandatory(principal.tenant);
    const result = await runOne(input, principal);
    // Its evaluators score it now rather than at the next sweep (a poke that fails is only logged).
    await pokeWatch();
    return result;
  },
});
