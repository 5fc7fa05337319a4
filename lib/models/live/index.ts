/**
 * The models library's door to live providers, kept apart from ./index.ts because it loads the provider
 * SDKs: callers import it lazily (`await import(...)`) so the fake model never loads an SDK
 * (lib/import-graph.test.ts checks that the main door reaches none).
 */
export { liveModelFactory } from '../create-model-client';
export { costMeterFor } from '../prices';
export { createJudge } from '../create-judge';
