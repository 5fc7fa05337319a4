/**
 * Watching runs live (issue 37): online evaluators on every finished run, the hourly rollup behind the
 * dashboards, and alert rules on it. The jobs library and the app enter here.
 */
export { watchPendingRuns as watchRuns, WATCH_BATCH, WATCH_MAX_BATCHES, type WatchOptions, type WatchReport } from './watch-runs';
export { evaluatorMatches } from './match';
export { evaluatorsFor, scoreRun, type JudgeAccess } from './score-run';
export { breachOf, evaluateAlerts, type Breach } from './alerts';
export { runBackfillStep as backfillStep, BACKFILL_CHUNK, type BackfillStepOutcome } from './backfill';
