/**
 * The threshold gate: a report's metrics against versioned minimums, maximums and allowed drops
 * from a baseline. Every check is listed with its value, threshold and the margin by which it
 * failed; a metric that is missing fails its check rather than passing silently.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { safeJsonParse } from '../harness';
import { METRIC_KEYS, type AggregateMetrics, type MetricKey } from './aggregate';
import { EvalFileError } from './errors';
import { round4 } from './numbers';

/**
 * The repository's thresholds file. Resolved from this file's path, not with `new URL(…, import.meta.url)`:
 * Next's bundler takes that for an asset import, and once pages reach this module through lib/eval's door
 * the build failed collecting page data ("path must be … URL. Received an instance of URL"; lib/mcp/paths.ts).
 */
export const DEFAULT_THRESHOLDS_PATH = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../config/gate-thresholds.json');

const Bounds = z.partialRecord(z.enum(METRIC_KEYS), z.number());

/** Version 1 of the thresholds file; unknown metric names are refused so a typo cannot disable a check. */
export const GateThresholdsSchema = z.strictObject({
  version: z.literal(1),
  min: Bounds.default({}),
  max: Bounds.default({}),
  /** Largest allowed fall from the baseline (baseline − current). */
  max_drop: Bounds.default({}),
});
export type GateThresholds = z.infer<typeof GateThresholdsSchema>;

export type GateCheckKind = 'min' | 'max' | 'max_drop';

export interface GateCheck {
  metric: MetricKey;
  kind: GateCheckKind;
  /** The report's value, or null when the report lacks the metric. */
  value: number | null;
  threshold: number;
  /** The baseline's value (max_drop checks only). */
  baseline: number | null;
  passed: boolean;
  /** How far past the threshold a failing check is (4 dp); 0 when it passed; null when a value is missing. */
  margin: number | null;
  message: string;
}

export interface GateResult {
  passed: boolean;
  checks: GateCheck[];
  /** Whether max_drop checks ran (they need a baseline). */
  baselineUsed: boolean;
}

/** Parses thresholds JSON text; throws EvalFileError naming the bad field. */
export function parseThresholds(text: string, file: string): GateThresholds {
  const json = safeJsonParse(text);
  if (!json.ok) throw new EvalFileError(file, `not valid JSON (${json.error})`);
  const parsed = GateThresholdsSchema.safeParse(json.value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new EvalFileError(file, `invalid thresholds: ${issue.path.join('.') || '(root)'}: ${issue.message}`);
  }
  return parsed.data;
}

/** Reads a thresholds file (the repository's by default). */
export function loadThresholds(file: string = DEFAULT_THRESHOLDS_PATH): GateThresholds {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new EvalFileError(file, 'cannot read the thresholds file', { cause: err });
  }
  return parseThresholds(text, file);
}

const fmt = (x: number): string => String(round4(x));

function boundCheck(kind: 'min' | 'max', metric: MetricKey, threshold: number, value: number | undefined): GateCheck {
  if (value === undefined) {
    return { metric, kind, value: null, threshold, baseline: null, passed: false, margin: null, message: `${metric} is missing from the report` };
  }
  const passed = kind === 'min' ? value >= threshold : value <= threshold;
  const margin = passed ? 0 : round4(Math.abs(value - threshold));
  const word = kind === 'min' ? 'minimum' : 'maximum';
  const message = passed
    ? `${metric} ${fmt(value)} meets the ${word} ${fmt(threshold)}`
    : `${metric} ${fmt(value)} is ${kind === 'min' ? 'below the minimum' : 'above the maximum'} ${fmt(threshold)} by ${fmt(margin)}`;
  return { metric, kind, value, threshold, baseline: null, passed, margin, message };
}

function dropCheck(metric: MetricKey, threshold: number, value: number | undefined, baseline: number | undefined): GateCheck {
  if (value === undefined || baseline === undefined) {
    const where = value === undefined ? 'the report' : 'the baseline';
    return {
      metric,
      kind: 'max_drop',
      value: value ?? null,
      threshold,
      baseline: baseline ?? null,
      passed: false,
      margin: null,
      message: `${metric} is missing from ${where}`,
    };
  }
  const drop = round4(baseline - value);
  const passed = drop <= threshold;
  const margin = passed ? 0 : round4(drop - threshold);
  const message = passed
    ? `${metric} ${fmt(value)} is within ${fmt(threshold)} of the baseline ${fmt(baseline)}`
    : `${metric} ${fmt(value)} dropped ${fmt(drop)} from the baseline ${fmt(baseline)}, ${fmt(margin)} more than the allowed ${fmt(threshold)}`;
  return { metric, kind: 'max_drop', value, threshold, baseline, passed, margin, message };
}

/** The metrics the gate bounds (its `min` and `max` checks), each once. */
export function gateMetrics(thresholds: GateThresholds): MetricKey[] {
  return [...new Set([...Object.keys(thresholds.min), ...Object.keys(thresholds.max)])] as MetricKey[];
}

/** The gate metrics whose value differs between two runs of the suite (e.g. a weakness against `none`). */
export function movedGateMetrics(thresholds: GateThresholds, base: AggregateMetrics, other: AggregateMetrics): MetricKey[] {
  return gateMetrics(thresholds).filter((m) => other[m] !== base[m]);
}

export interface EvaluateGateOptions {
  metrics: AggregateMetrics;
  thresholds: GateThresholds;
  /** Baseline metrics; without them the max_drop checks are not run. */
  baseline?: AggregateMetrics | null;
}

/** Checks metrics against the thresholds (and the baseline, when given). */
export function evaluateGate(options: EvaluateGateOptions): GateResult {
  const { metrics, thresholds, baseline } = options;
  const checks: GateCheck[] = [];
  for (const [metric, threshold] of Object.entries(thresholds.min) as [MetricKey, number][]) {
    checks.push(boundCheck('min', metric, threshold, metrics[metric] ?? undefined));
  }
  for (const [metric, threshold] of Object.entries(thresholds.max) as [MetricKey, number][]) {
    checks.push(boundCheck('max', metric, threshold, metrics[metric] ?? undefined));
  }
  if (baseline) {
    for (const [metric, threshold] of Object.entries(thresholds.max_drop) as [MetricKey, number][]) {
      checks.push(dropCheck(metric, threshold, metrics[metric] ?? undefined, baseline[metric] ?? undefined));
    }
  }
  return { passed: checks.every((c) => c.passed), checks, baselineUsed: Boolean(baseline) };
}
