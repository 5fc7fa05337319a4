/**
 * The evaluation report: suite metrics, per-category rows, each case's scores and run summary, the
 * configuration, and the identity of the data (dataset name and hash, golden-file sha256). It is
 * written as JSON and read back through the same schema (by the gate and the dashboard).
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { safeJsonParse } from '../harness';
import { AggregateMetricsSchema, CategoryMetricsSchema } from './aggregate';
import { CaseScoresSchema } from './case-scores';
import { EvalFileError } from './errors';
import { FAKE_MODEL } from '../harness';
import { suiteIntervals } from './intervals';
import { runPointsOf } from './interval-metrics';
import { RunSummarySchema, summarizeRun } from './run-summary';
import type { SuiteResult } from './suite';

export const REPORT_VERSION = 1;

/** The configuration as recorded: the fields the metrics depend on, others kept as they are. */
export const ReportConfigSchema = z.looseObject({
  mode: z.string(),
  weaknesses: z.array(z.string()),
  guards: z.array(z.string()).default([]),
  payloadWrappers: z.array(z.string()).default([]),
  transport: z.string(),
});

export const ReportCaseSchema = z.object({
  id: z.string(),
  category: z.string(),
  /** Which repetition of the case (from 0); present only when the suite ran more than one epoch. */
  epoch: z.number().int().optional(),
  scores: CaseScoresSchema,
  run: RunSummarySchema,
});

const MetricIntervalSchema = z.object({ value: z.number(), low: z.number(), high: z.number(), n: z.number().int(), method: z.string() });
export const SuiteIntervalsSchema = z.object({
  level: z.number(),
  epochs: z.number().int(),
  cases: z.number().int(),
  runs: z.number().int(),
  deterministic: z.boolean(),
  metrics: z.record(z.string(), MetricIntervalSchema),
  by_category: z.record(z.string(), z.record(z.string(), MetricIntervalSchema)),
});

/** Whether a configuration's model is deterministic (the fake): its intervals then have zero width. */
export function isDeterministicModel(config: Readonly<Record<string, unknown>>): boolean {
  return (config['model'] ?? FAKE_MODEL) === FAKE_MODEL;
}

export const EvalReportSchema = z.object({
  version: z.literal(REPORT_VERSION),
  generatedAt: z.string(),
  dataset: z.object({ name: z.string(), hash: z.string() }),
  golden: z.object({ file: z.string(), sha256: z.string(), cases: z.number().int() }),
  config: ReportConfigSchema,
  metrics: AggregateMetricsSchema,
  by_category: z.record(z.string(), CategoryMetricsSchema),
  cases: z.array(ReportCaseSchema),
  /** Runs per case (absent in reports written before epochs: one). */
  epochs: z.number().int().min(1).optional(),
  /** 95% intervals of the metrics, each with its method (absent in reports written before intervals). */
  intervals: SuiteIntervalsSchema.optional(),
  /** Who graded the answers (absent in reports written before live judges): name, rubric, items left unscored. */
  judge: z.object({ name: z.string(), rubricVersion: z.string(), unscored: z.number().int() }).nullable().optional(),
});
export type EvalReport = z.infer<typeof EvalReportSchema>;

export interface BuildReportOptions {
  suite: SuiteResult;
  config: z.input<typeof ReportConfigSchema>;
  dataset: { name: string; hash: string };
  golden: { path: string; sha256: string };
  /** Injected clock, for reproducible reports in tests. */
  now?: () => Date;
}

/** Builds the report object of one suite run. */
export function buildReport(options: BuildReportOptions): EvalReport {
  const { suite } = options;
  const config = ReportConfigSchema.parse(options.config);
  const multi = suite.epochs > 1;
  return {
    version: REPORT_VERSION,
    generatedAt: (options.now ?? (() => new Date()))().toISOString(),
    dataset: { name: options.dataset.name, hash: options.dataset.hash },
    golden: { file: options.golden.path, sha256: options.golden.sha256, cases: new Set(suite.results.map((r) => r.golden.id)).size },
    config,
    metrics: suite.aggregate.metrics,
    by_category: suite.aggregate.byCategory,
    cases: suite.results.map((r) => ({
      id: r.golden.id,
      category: r.golden.category,
      ...(multi ? { epoch: r.epoch } : {}),
      scores: r.scores,
      run: summarizeRun(r.run),
    })),
    epochs: suite.epochs,
    intervals: suiteIntervals(runPointsOf(suite.results), { epochs: suite.epochs, deterministic: isDeterministicModel(config) }),
    judge: suite.judge
      ? {
          ...suite.judge,
          // Items the judge gave no verdict on (a failed call, malformed output), both rubrics counted.
          unscored: suite.results.reduce((n, r) => n + (r.scores.judgeUnscored != null ? 1 : 0) + (r.scores.faithfulnessUnscored != null ? 1 : 0), 0),
        }
      : null,
  };
}

/** Parses report JSON text; throws EvalFileError naming the first invalid field. */
export function parseReport(text: string, file: string): EvalReport {
  const json = safeJsonParse(text);
  if (!json.ok) throw new EvalFileError(file, `not valid JSON (${json.error})`);
  const parsed = EvalReportSchema.safeParse(json.value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new EvalFileError(file, `not an evaluation report: ${issue.path.join('.') || '(root)'}: ${issue.message}`);
  }
  return parsed.data;
}

/** Reads a report written by `stockroom eval --out`. */
export function readReport(file: string): EvalReport {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new EvalFileError(file, 'cannot read the report', { cause: err });
  }
  return parseReport(text, file);
}
