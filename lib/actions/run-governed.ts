'use server';
/**
 * Runs one golden case or query with the governance policy attached, as the signed-in operator in
 * their tenant. The run may pause for approval; the result says so and names the request.
 */
import { revalidatePath } from 'next/cache';
import { RunOneInputSchema } from '../schemas/run-settings';
import { safeAction } from '../boundary/safe-action';
import { startGovernedOne } from '../runs/governed-start';
import { deliveryQueueOf, getJobQueue } from '../jobs/queue';

export const runGovernedAction = safeAction({
  name: 'runGoverned',
  schema: RunOneInputSchema,
  role: 'operator',
  handler: async (input, { principal }) => {
    const out = await startGovernedOne(input, principal, deliveryQueueOf(getJobQueue()));
    revalidatePath('/runs');
    if (out.approvalId) revalidatePath('/approvals');
    return out;
  },
});
