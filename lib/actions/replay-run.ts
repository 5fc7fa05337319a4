'use server';
/**
 * "Replay against…" on the replay page: re-run a stored live run under other settings from its
 * recorded model responses, store the new run, and answer with both ids (the page opens compare).
 */
import { ReplayRunInputSchema } from '../schemas/replay-run';
import { safeAction } from '../boundary/safe-action';
import { refuseUngovernedIfMandatory } from '../runs/mandatory-governance';
import { replayRun } from '../runs/replay';
import { pokeWatch } from '../jobs/queue';

export const replayRunAction = safeAction({
  name: 'replayRun',
  schema: ReplayRunInputSchema,
  role: 'operator',
  handler: async (input, { principal }) => {
    // The replay runs without the policy, like any single ungoverned run.
    refuseUngovernedIfMandatory(principal.tenant);
    const result = await replayRun(input, principal);
    await pokeWatch();
    return result;
  },
});
