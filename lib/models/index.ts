/**
 * The models library's door: other libraries import lib/models through these named exports only
 * (lib/import-graph.test.ts refuses an import of its internals). Any name added here is public.
 */
export { availableProviders, type Env, missingCredential } from './credentials';
export type { JudgeCallRecord, JudgeCallStore } from './model-judge';
export { type ModelServer, startModelServer } from './model-server/server';
export { loadPrices, priceFor, type Price, type PriceFile, usdAt } from './prices';
export { NotReplayableError, replayModel, type ReplaySource, replaySourceOf } from './replay-source';
export type { AttemptGate } from './resilience';
