/**
 * Gate baselines: the metrics of an accepted report, kept so the gate can refuse a regression
 * (a drop larger than `max_drop`) even while every absolute threshold still passes.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { z } from 'zod';
import { safeJsonParse } from '../harness/json';
import { AggregateMetricsSchema, type AggregateMetrics } from './aggregate';
import { EvalFileError } from './errors';
import { EvalReportSchema, type EvalReport } from './report';

export const BaselineSchema = z.strictObject({
  version: z.literal(1),
  createdAt: z.string(),
  /** What the metrics were measured on, so a baseline from other data is recognisable. */
  source: z.object({
    datasetName: z.string(),
    datasetHash: z.string(),
    goldenSha256: z.string(),
    weaknesses: z.array(z.string()),
  }),
  metrics: AggregateMetricsSchema,
});
export type Baseline = z.infer<typeof BaselineSchema>;

/** A baseline from a report's metrics. */
export function baselineFromReport(report: EvalReport, now: () => Date = () => new Date()): Baseline {
  return {
    version: 1,
    createdAt: now().toISOString(),
    source: {
      datasetName: report.dataset.name,
      datasetHash: report.dataset.hash,
      goldenSha256: report.golden.sha256,
      weaknesses: report.config.weaknesses,
    },
    metrics: report.metrics,
  };
}

/** Parses a baseline file, or a whole report used as one. */
export function parseBaselineMetrics(text: string, file: string): AggregateMetrics {
  const json = safeJsonParse(text);
  if (!json.ok) throw new EvalFileError(file, `not valid JSON (${json.error})`);
  const baseline = BaselineSchema.safeParse(json.value);
  if (baseline.success) return baseline.data.metrics;
  const report = EvalReportSchema.safeParse(json.value);
  if (report.success) return report.data.metrics;
  const issue = baseline.error.issues[0]!;
  throw new EvalFileError(file, `neither a baseline nor a report: ${issue.path.join('.') || '(root)'}: ${issue.message}`);
}

/** Reads the metrics of a baseline (or report) file. */
export function readBaselineMetrics(file: string): AggregateMetrics {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new EvalFileError(file, 'cannot read the baseline', { cause: err });
  }
  return parseBaselineMetrics(text, file);
}

/** Writes a baseline file (pretty JSON, trailing newline). */
export function writeBaseline(file: string, baseline: Baseline): void {
  writeFileSync(file, JSON.stringify(baseline, null, 2) + '\n');
}
