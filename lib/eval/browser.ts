/**
 * The eval library's browser-safe door: what code that reaches a client component may import from
 * lib/eval. Everything here imports no Node built-in and no server-only module (lib/import-graph.test.ts
 * checks it); the rest of the library is entered through ./index.ts.
 */
export { MATRIX_TABLE_METRICS } from './matrix-table';
export { round4 } from './numbers';
export { casesMovedOverEpochs, type EpochCaseRow, type MovedOverEpochs } from './case-epochs';
export { VERDICT_WORDS, deltaMark, formatInterval } from './interval-format';
export { AGAINST_BASE, AGAINST_CURRENT } from './against';
export type { SuiteStatistics } from './suite-statistics';
export type { MetricInterval } from './intervals';
export type { DeltaVerdict, PairedDelta } from './paired-deltas';
