/**
 * The weakness matrix (SPEC.md §1): the golden set evaluated under `none` and under each weakness
 * flag alone, every other setting taken from the base configuration, each setting computed once.
 */
import { resolveConfig, type HarnessConfig, type WeaknessFlag } from '../harness';
import type { ToolExecutor } from '../harness';
import type { RunResult } from '../harness';
import type { Dataset } from '../stockroom';
import { createStockroomAgent, WEAKNESS_ORDER, type CreateAgentOptions } from '../stockroom';
import { EvalFileError } from './errors';
import { loadGoldenFile, type GoldenFile } from './golden';
import type { Judge } from './judge';
import { computeDeltas, MATRIX_TABLE_METRICS, type MetricDeltas } from './matrix-table';
import { runPointsOf } from './interval-metrics';
import { pairedDeltas, type PairedDelta } from './paired-deltas';
import { buildReport, isDeterministicModel, type EvalReport } from './report';
import { checkEpochs, runSuite, type SuiteProgress, type SuiteResult } from './suite';

export type MatrixSetting = 'none' | WeaknessFlag;

/** The matrix rows, in the published order: `none`, then the weakness table's flags. */
export const MATRIX_SETTINGS: readonly MatrixSetting[] = ['none', ...WEAKNESS_ORDER];

/** The weakness flags of a setting. */
export function settingWeaknesses(setting: MatrixSetting): WeaknessFlag[] {
  return setting === 'none' ? [] : [setting];
}

export interface RunMatrixOptions {
  dataset: Dataset;
  /** Guards, wrappers, transport and limits shared by every row; its weaknesses are replaced per row. */
  baseConfig?: Partial<HarnessConfig>;
  /** Golden file; defaults to the dataset's first. */
  goldenPath?: string;
  /** Golden cases already loaded (a stored golden set); wins over goldenPath. */
  golden?: GoldenFile;
  /** A non-default executor per row (e.g. an MCP transport); the agent's own local executor otherwise. */
  createExecutor?: (config: HarnessConfig) => ToolExecutor | undefined | Promise<ToolExecutor | undefined>;
  judge?: Judge | null;
  /** A live model for every row (lib/models); the fake model otherwise. */
  liveModel?: CreateAgentOptions['liveModel'];
  costMeter?: CreateAgentOptions['costMeter'];
  /** Cancels the matrix (Ctrl-C): the run in flight is aborted and an AbortError is thrown. */
  signal?: AbortSignal;
  onProgress?: (setting: MatrixSetting, progress: SuiteProgress) => void;
  now?: () => Date;
  /** Told of every finished run (the OpenTelemetry export seam). */
  onRunFinished?: (run: RunResult) => void;
  /** Runs per case in every setting (default 1). */
  epochs?: number;
}

export interface MatrixRow {
  setting: MatrixSetting;
  config: HarnessConfig;
  suite: SuiteResult;
  report: EvalReport;
}

export interface MatrixResult {
  golden: Pick<GoldenFile, 'path' | 'sha256'>;
  rows: MatrixRow[];
  /** Reports keyed by setting, in matrix order. */
  reports: Record<MatrixSetting, EvalReport>;
  /** Each setting's metrics minus `none`'s. */
  deltas: Record<MatrixSetting, MetricDeltas>;
  /** Runs per case. */
  epochs: number;
  /**
   * Each weakness setting against `none`, paired by case: the delta's interval, its test and a
   * significance verdict corrected over every cell (lib/eval/paired-deltas.ts).
   */
  paired: Record<string, Record<string, PairedDelta>>;
}

/** The default golden file of a dataset (its first). */
export function defaultGoldenPath(dataset: Pick<Dataset, 'dir' | 'goldenFiles'>): string {
  const first = dataset.goldenFiles[0];
  if (first === undefined) throw new EvalFileError(dataset.dir, 'the dataset has no golden/*.jsonl file');
  return first;
}

/** Evaluates the golden set under each of the five settings. */
export async function runMatrix(options: RunMatrixOptions): Promise<MatrixResult> {
  const { dataset } = options;
  const golden = options.golden ?? loadGoldenFile(options.goldenPath ?? defaultGoldenPath(dataset));
  const epochs = checkEpochs(options.epochs ?? 1);
  const rows: MatrixRow[] = [];
  for (const setting of MATRIX_SETTINGS) {
    const config = resolveConfig(options.baseConfig ?? {}, { weaknesses: settingWeaknesses(setting) });
    const executor = options.createExecutor ? await options.createExecutor(config) : undefined;
    const agent = await createStockroomAgent({
      dataset,
      config,
      executor,
      liveModel: options.liveModel,
      costMeter: options.costMeter,
      onRunFinished: options.onRunFinished,
    });
    try {
      const suite = await runSuite({
        agent,
        cases: golden.cases,
        judge: options.judge,
        epochs,
        signal: options.signal,
        onProgress: options.onProgress && ((p) => options.onProgress?.(setting, p)),
      });
      const report = buildReport({ suite, config, dataset, golden, now: options.now });
      rows.push({ setting, config, suite, report });
    } finally {
      await agent.close();
    }
  }
  const reports = Object.fromEntries(rows.map((r) => [r.setting, r.report])) as Record<MatrixSetting, EvalReport>;
  const deltas = computeDeltas(Object.fromEntries(rows.map((r) => [r.setting, r.report.metrics]))) as Record<
    MatrixSetting,
    MetricDeltas
  >;
  const runsBySetting = Object.fromEntries(
    rows.map((r) => [r.setting, runPointsOf(r.suite.results)]),
  );
  const paired = pairedDeltas(runsBySetting, 'none', {
    epochs,
    deterministic: isDeterministicModel(rows[0]?.config ?? {}),
    metrics: MATRIX_TABLE_METRICS,
  });
  return { golden: { path: golden.path, sha256: golden.sha256 }, rows, reports, deltas, epochs, paired };
}
