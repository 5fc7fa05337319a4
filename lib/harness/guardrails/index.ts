/**
 * The guardrails' configuration door, one folder down: the schema of a run's guardrails and which are on,
 * for shaping that runs in the browser (the matrix page names a suite's guardrails). Apart from
 * ../browser.ts because the schema is zod: a client bundle that needs only the harness's names or states
 * (the replay page's) does not load zod through it (issue 31). Safe in a client bundle, like ../browser.ts.
 */
export { type GuardrailsInput, guardrailsOn, GuardrailsSchema } from './config';
