/**
 * Suites and matrices (floor db/suites, on db/runs): the suite row, its case jobs and their stores, the
 * live status and poll, statistics over epochs, suites made from an eval.
 *
 * The area's entry: lib/ code outside lib/db/suites imports it only from here (lib/import-graph.test.ts).
 */
export { caseEpochKey, caseKey, finishSuiteIfComplete, markSuiteStarted, pastCaseDurations, storedCaseKeys, storeSuiteCase, suiteConfig, suiteForCase, suiteStatus, workerPresence, type StoreCaseOutcome } from './suite-jobs';
export { getSuitePoll, type SuitePollDto } from './suite-poll';
export { createSuiteRun, failSuiteRun, getSuiteCases, getSuiteRun, getSuiteRunOrThrow, listSuiteRuns, unfinishedSuites } from './suites';
