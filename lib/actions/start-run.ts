'use server';
/**
 * Starts one golden case or free query like runOne, but answers as soon as the run is stored so the
 * browser can open its replay and follow it. On the embedded SQLite default the run goes on in this
 * server process (a live-model run: stored as running, before its first model call). On PostgreSQL
 * it is stored as queued and a worker runs it: the web server only enqueues.
 */
import { RunOneInputSchema } from '../schemas/run-settings';
import { getRunQueue, pokeWatch } from '../jobs/queue';
import { safeAction } from '../boundary/safe-action';
import { refuseUngovernedIfMandatory } from '../runs/mandatory-governance';
import { queueRun } from '../runs/queued';
import { startRun } from '../runs/single';

export const startRunAction = safeAction({
  name: 'startRun',
  schema: RunOneInputSchema,
  role: 'operator',
  handler: async (input, { principal }) => {
    refuseUngovernedIfMandatory(principal.tenant);
    const queue = getRunQueue();
    if (queue.remote) return queueRun(input, principal, queue);
    const started = await startRun(input, principal);
    // Nobody awaits the rest: a failure after the first stored step is logged (the run keeps what it stored).
    // Once stored whole, its evaluators score it now rather than at the next sweep.
    started.done.then(() => pokeWatch()).catch((err: unknown) => console.error(`[startRun ${started.runId}] failed after it was stored`, err));
    return { runId: started.runId };
  },
});
