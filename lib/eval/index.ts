/** Public surface of the evaluation library (SPEC.md §12): metrics, suite, reports, matrix and gate. */
export { EvalError, EvalFileError, GoldenFileError, type GoldenIssue } from './errors';
export {
  GoldenCaseRecordSchema,
  TRAJECTORY_MATCH_MODES,
  loadGoldenFile,
  parseGoldenText,
  type ExpectedCall,
  type GoldenCase,
  type GoldenFile,
  type TrajectoryMatchMode,
} from './golden';
export { fsum, mean4, pyFloat, round4, roundTo } from './numbers';
export { extractKeyFacts, factPresent, normalize } from './facts';
export { argsMatch, argumentCorrectness, matchCalls, toolSelection, type CallLike, type CallMatch } from './match-calls';
export { checkOutput, type OutputCheck } from './output-evaluator';
export { contextFromRun, gradeFaithfulness, splitClaims, type FaithfulnessResult } from './faithfulness';
export {
  FakeJudge,
  JUDGE_UNSCORED_REASONS,
  RUBRIC_VERSIONS,
  isScored,
  type Judge,
  type JudgeItem,
  type JudgeOutcome,
  type JudgeUnscored,
  type JudgeVerdict,
  type RubricVersion,
} from './judge';
export { JUDGE_MAX_TOKENS, VERDICT_TOOL, judgeRequest, verdictFromResponse } from './judge-prompt';
export { agreementStats, type AgreementStats, type LabelPair } from './agreement';
export {
  CalibrationItemSchema,
  calibrateJudge,
  defaultCalibrationFile,
  formatCalibration,
  loadCalibrationSet,
  type CalibrationItem,
  type CalibrationItemResult,
  type CalibrationResult,
  type CalibrationSet,
} from './calibration';
export { LOOP_WINDOW, callSignature, contextGrowthRatio, detectLoops, type LoopFinding } from './loops';
export { CaseScoresSchema, evaluateCase, judgeCase, scoreCase, type CaseJudgement, type CaseScores, type EvaluateCaseOptions } from './case-scores';
export {
  AggregateMetricsSchema,
  CategoryMetricsSchema,
  METRIC_KEYS,
  aggregate,
  type Aggregate,
  type AggregateMetrics,
  type CategoryMetrics,
  type MetricKey,
} from './aggregate';
export { METRIC_KINDS, judgeItemOfRun, measureRun, type Measurement, type MetricKind, type MetricOptions } from './online-metrics';
export { sampledRun } from './sampling';
export { MAX_TAG_CHARS, MAX_TAGS_PER_RUN, normaliseTag, RunTagsSchema, TagFilterSchema, tagsFromValues } from './run-tags';
export { EVALUATOR_KINDS, EvaluatorConfigSchema, EvaluatorFilterSchema, MAX_EVALUATORS, type EvaluatorConfig, type EvaluatorFilter, type EvaluatorKind } from './online-evaluators';
export { callStatus, summarizeRun, type RunSummary, type ToolCallSummary } from './run-summary';
export { runSuite, type RunSuiteOptions, type SuiteAgent, type SuiteProgress, type SuiteResult } from './suite';
export { EvalReportSchema, SuiteIntervalsSchema, buildReport, isDeterministicModel, parseReport, readReport, type EvalReport } from './report';
export { MATRIX_TABLE_METRICS, computeDeltas, formatMatrixTable, type MetricDeltas } from './matrix-table';
export { MATRIX_SETTINGS, defaultGoldenPath, runMatrix, type MatrixResult, type MatrixSetting } from './matrix';
export { MAX_EPOCHS, checkEpochs } from './suite';
export { INTERVAL_METRICS, modelLatencyOf, runPointsOf, type RunPoint } from './interval-metrics';
export { INTERVAL_LEVEL, INTERVAL_METHODS, suiteIntervals, type MetricInterval, type SuiteIntervals } from './intervals';
export { SIGNIFICANCE_LEVEL, pairedDeltas, type DeltaTest, type DeltaVerdict, type PairedDelta } from './paired-deltas';
export { VERDICT_WORDS, deltaMark, formatInterval } from './interval-format';
export { AGAINST_BASE, AGAINST_CURRENT } from './against';
export { casesMovedOverEpochs, casesOverEpochs, scoreOverEpochs, type CaseOverEpochs, type EpochCaseRow, type MovedOverEpochs, type MovedTest } from './case-epochs';
export { epochsOf, suiteStatistics, type SuiteStatistics, type SuiteStatisticsOptions } from './suite-statistics';
export { Z_95, Z_80, mcnemarExact, signTest, wilsonInterval, type Interval } from './stats/binomial';
export { clusteredBootstrap, pairedBootstrap, pairedPermutationTest } from './stats/resampling';
export { holmAdjust } from './stats/multiple';
export { epochsToDetect } from './stats/power';
export { KAPPA_INTERVAL_METHOD } from './agreement';
export {
  DEFAULT_THRESHOLDS_PATH,
  GATE_RULES,
  GATE_RULE_TEXT,
  GateThresholdsSchema,
  evaluateGate,
  gateMetrics,
  movedGateMetrics,
  loadThresholds,
  parseThresholds,
  type GateCheck,
  type GateResult,
  type GateRule,
  type GateThresholds,
} from './gate';
export { formatGateMarkdown } from './gate-markdown';
export {
  BaselineSchema,
  baselineFromReport,
  baselineMismatches,
  parseBaseline,
  readBaseline,
  writeBaseline,
  type Baseline,
  type BaselineMetrics,
} from './baseline';

// Reached from other libraries.
export { goldenFileOfText, goldenLine, GoldenSetNameSchema, goldenSetRef, goldenTextSha256, parseGoldenSetRef, type RunForDraft } from './golden-sets';
export type { GoldenCaseRecord } from './golden';
export type { GradeOptions, JudgeSpend } from './judge';
export { calibrationSetFromLabels, type LabelledRun, labelsStillNeeded } from './label-calibration';
export { labelDigest } from './label-digest';
export { currentLabels, DEFAULT_LABEL_SET, type LabelContent, labelProblem, type LabelSet, LabelSetSchema } from './labels';
export { plantedInstructions, type PromptLeak, systemPromptLeak } from './planted-text';
