'use server';
/** What a live matrix would cost and roughly how long it takes, before the page asks to start it (nothing runs live, nothing is stored). */
import { RunMatrixInputSchema } from '../schemas/run-settings';
import { safeAction } from '../boundary/safe-action';
import { estimateMatrixFor } from '../runs/suites';
import { parseProviderLimits } from '../jobs/provider-limits';

export const estimateMatrixAction = safeAction({
  name: 'estimateMatrix',
  schema: RunMatrixInputSchema,
  role: 'operator',
  handler: (input, { principal }) => {
    const limits = parseProviderLimits(process.env.STOCKROOM_PROVIDER_LIMITS);
    return estimateMatrixFor(input, principal, (provider) => limits.get(provider) ?? null);
  },
});
