/**
 * Review of stored runs (floor db/review, on db/runs): labels, the judge's calls and calibration, golden
 * sets, online evaluators and their scores, the hourly rollup and alert rules, step findings.
 *
 * The area's entry: lib/ code outside lib/db/review imports it only from here (lib/import-graph.test.ts).
 */
export { enabledAlertRules, recordAlert, type AlertEventDto, type AlertRuleDto } from './alerts';
export { backfillCandidates, claimBackfill, countBackfillRuns, endBackfill, idleBackfillIds, releaseBackfill, storeBackfillChunk, type BackfillChunk } from './evaluator-backfills';
export { enabledEvaluatorsOf, listEvaluators, type EvaluatorDto } from './evaluators';
export { getGoldenSetOrThrow, getGoldenSetTextOrThrow, listGoldenSets } from './golden-sets';
export { currentTenantLabels } from './labels';
export { applyRollup, rollupRows, saveContributions, type HourDelta, type LatencyDelta, type RollupDeltas, type ScoreDelta } from './rollup';
export { claimWatch, completeWatch, evaluatorSpendSince, releaseWatch, type NewScore, type WatchCompletion } from './run-scores';
