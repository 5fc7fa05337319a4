/**
 * Gate baselines: the metrics of an accepted report, kept so the gate can refuse a regression
 * (a drop larger than `max_drop`) even while every absolute threshold still passes.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { z } from 'zod';
import { safeJsonParse } from '../harness';
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

/** Baseline metrics and, when known, what they were measured on. */
export interface BaselineMetrics {
  metrics: AggregateMetrics;
  source: Baseline['source'] | null;
}

/** Parses a baseline file, or a whole report used as one. */
export function parseBaseline(text: string, file: string): BaselineMetrics {
  const json = safeJsonParse(text);
  if (!json.ok) throw new EvalFileError(file, `not valid JSON (${json.error})`);
  const baseline = BaselineSchema.safeParse(json.value);
  if (baseline.success) return { metrics: baseline.data.metrics, source: baseline.data.source };
  const report = EvalReportSchema.safeParse(json.value);
  if (report.success) return { metrics: report.data.metrics, source: baselineFromReport(report.data).source };
  const issue = baseline.error.issues[0]!;
  throw new EvalFileError(file, `neither a baseline nor a report: ${issue.path.join('.') || '(root)'}: ${issue.message}`);
}

/** Reads a baseline (or report) file. */
export function readBaseline(file: string): BaselineMetrics {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new EvalFileError(file, 'cannot read the baseline', { cause: err });
  }
  return parseBaseline(text, file);
}

/**
 * Why a baseline may not be comparable with a report (other dataset, golden file or weaknesses);
 * empty when it is. The gate still runs: this is a warning for the person reading it.
 */
export function baselineMismatches(source: Baseline['source'] | null, report: EvalReport): string[] {
  if (!source) return [];
  const now = baselineFromReport(report).source;
  const out: string[] = [];
  if (source.datasetHash !== now.datasetHash) out.push(`dataset ${source.datasetName} (${source.datasetHash.slice(0, 12)}) vs ${now.datasetName} (${now.datasetHash.slice(0, 12)})`);
  if (source.goldenSha256 !== now.goldenSha256) out.push(`golden file ${source.goldenSha256.slice(0, 12)} vs ${now.goldenSha256.slice(0, 12)}`);
  if (source.weaknesses.join(',') !== now.weaknesses.join(',')) {
    out.push(`weaknesses [${source.weaknesses.join(',')}] vs [${now.weaknesses.join(',')}]`);
  }
  return out;
}

/** Writes a baseline file (pretty JSON, trailing newline). */
export function writeBaseline(file: string, baseline: Baseline): void {
  writeFileSync(file, JSON.stringify(baseline, null, 2) + '\n');
}
