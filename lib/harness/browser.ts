/**
 * The harness library's browser-safe door: what code that reaches a client component may import from
 * lib/harness. Everything here imports no Node built-in and no server-only module (lib/import-graph.test.ts
 * checks it); the rest of the library is entered through ./index.ts.
 */
export { FAKE_MODEL, HARNESS_STATES, NOISY_FAKE_MODEL, type RunGuardName, WEAKNESS_FLAGS, type WeaknessFlag } from './names';
export type { JsonValue } from './json';
export { compareCodePoints } from './pyjson';
export { QUARANTINE_MARKER } from './tunables';
export type { Agent, CallTime, HarnessState, ModelRetryEvent } from './types';
export { HarnessError } from './errors';
