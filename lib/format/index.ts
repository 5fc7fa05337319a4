/**
 * The format library's door: other libraries import lib/format through these named exports only
 * (lib/import-graph.test.ts refuses an import of its internals). Any name added here is public.
 */
export type { WorkerPresence } from './workers';
export { isLiveStatus, LIVE_RUN_STATUSES } from './run-status';
