/**
 * Stored runs (floor db/runs, on db/governance: a run is stored redacted with its evidence): writing and
 * reading a run's rows, the runs list with its filters, text search and grouping, the replay's pages
 * (timeline, waterfall, progress), sessions, rewriting stored runs' redactions.
 *
 * The area's entry: lib/ code outside lib/db/runs imports it only from here (lib/import-graph.test.ts).
 */
export { GUARDRAIL_GUARD } from './retry-rows';
export { json } from './run-dto';
export { parseRunFilters, type RunFilters } from './run-filters';
export { resolveRunId } from './run-lookup';
export { answerSoFarRecorder, claimQueuedRun, endRunsUnfinished, getRunProgressOrThrow, markRunStopping, runStatus, toolProgressRecorder, type RunProgressDto } from './run-progress';
export { buildRunRows, builtRun, type RunRows } from './run-rows';
export { type TimelineDto } from './run-timeline';
export { countRuns, listRuns, MAX_RUN_PAGE, RUN_SORT_KEYS, runWhere, type ListRunsOptions, type RunSort } from './runs-list';
export { getBlobTextOrThrow, getRunForEvaluators, getRunOrThrow, getRunsForEvaluators, getRunSteps, getRunSummary, getToolResultAt, type EvaluatedRun } from './runs-read';
export { deleteRun, deleteRunsIn, replaceRun, runTables, saveRun, saveRuns } from './runs-write';
export { type CreateSuiteInput, type MovedCase, type RunListItem, type SaveRunInput, type SaveRunMeta, type SaveSuiteInput, type SaveSuiteSettingInput, type StepDto, type StepPage, type SuiteCaseDto, type SuiteKind, type SuiteRunDto, type SuiteRunListItem, type SuiteSettingDto, type SuiteStatus } from './types';
