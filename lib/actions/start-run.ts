'use server';
/**
 * Starts one golden case or free query like runOne, but answers as soon as the run is stored (a
 * live-model run: status running, before its first model call) so the browser can open its replay
 * and follow it. The rest of the run goes on in this server process and is stored step by step.
 */
import { RunOneInputSchema } from '../schemas/run-settings';
import { safeAction } from './safe-action';
import { refuseUngovernedIfMandatory } from './support/mandatory-governance';
import { startRun } from './support/runner';

export const startRunAction = safeAction({
  name: 'startRun',
  schema: RunOneInputSchema,
  role: 'operator',
  handler: async (input, { principal }) => {
    refuseUngovernedIfMandatory(principal.tenant);
    const started = await startRun(input, principal);
    // Nobody awaits the rest: a failure after the first stored step is logged (the run keeps what it stored).
    started.done.catch((err: unknown) => console.error(`[startRun ${started.runId}] failed after it was stored`, err));
    return { runId: started.runId };
  },
});
