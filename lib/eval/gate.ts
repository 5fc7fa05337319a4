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
 * the build failed collecting page data ("path must be … URL. Received an instance of URL"; lib/mcp/shared/paths.ts).
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

/**
 * How a check reads a metric: `point` compares the value (as always); `interval` fails only when the
 * whole 95% interval is on the wrong side (a minimum's upper bound below it, a maximum's lower bound
 * above it, a drop that even the upper bound exceeds). A deterministic report's intervals have zero
 * width, so both rules gate it exactly alike.
 */
export const GATE_RULES = ['point', 'interval'] as const;
export type GateRule = (typeof GATE_RULES)[number];

/** Each rule in words, written into the gate's output and markdown. */
export const GATE_RULE_TEXT: Record<GateRule, string> = {
  point: 'point: each metric value is compared with its threshold',
  interval:
    'interval: a check fails only when the 95% interval is entirely on the wrong side (minimum: its upper bound below; maximum: its lower bound above; drop: baseline minus the upper bound beyond the allowed drop); a metric without an interval is compared as a point',
};

export interface GateCheck {
  metric: MetricKey;
  kind: GateCheckKind;
  /** The report's value, or null when the report lacks the metric. */
  value: number | null;
  /** The value's 95% interval when the interval rule read it. */
  interval?: { low: number; high: number };
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
  /** How values were compared (absent: point). */
  rule?: GateRule;
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

const ivText = (iv: Interval | undefined): string => (iv ? ` [${fmt(iv.low)}, ${fmt(iv.high)}]` : '');

function boundCheck(kind: 'min' | 'max', metric: MetricKey, threshold: number, value: number | undefined, iv?: Interval): GateCheck {
  if (value === undefined) {
    return { metric, kind, value: null, threshold, baseline: null, passed: false, margin: null, message: `${metric} is missing from the report` };
  }
  // Under the interval rule the bound nearest the threshold decides; without an interval, the value.
  const compared = iv ? (kind === 'min' ? iv.high : iv.low) : value;
  const passed = kind === 'min' ? compared >= threshold : compared <= threshold;
  const margin = passed ? 0 : round4(Math.abs(compared - threshold));
  const word = kind === 'min' ? 'minimum' : 'maximum';
  const bound = iv ? (kind === 'min' ? 'its upper bound' : 'its lower bound') : '';
  const message = passed
    ? `${metric} ${fmt(value)}${ivText(iv)} meets the ${word} ${fmt(threshold)}`
    : `${metric} ${fmt(value)}${ivText(iv)} is ${bound ? `${bound} ` : ''}${kind === 'min' ? 'below the minimum' : 'above the maximum'} ${fmt(threshold)} by ${fmt(margin)}`;
  return { metric, kind, value, ...(iv ? { interval: iv } : {}), threshold, baseline: null, passed, margin, message };
}

function dropCheck(metric: MetricKey, threshold: number, value: number | undefined, baseline: number | undefined, iv?: Interval): GateCheck {
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
  // Under the interval rule, the drop even the upper bound shows.
  const drop = round4(baseline - (iv ? iv.high : value));
  const passed = drop <= threshold;
  const margin = passed ? 0 : round4(drop - threshold);
  const message = passed
    ? `${metric} ${fmt(value)}${ivText(iv)} is within ${fmt(threshold)} of the baseline ${fmt(baseline)}`
    : `${metric} ${fmt(value)}${ivText(iv)} dropped ${fmt(drop)}${iv ? ' (upper bound)' : ''} from the baseline ${fmt(baseline)}, ${fmt(margin)} more than the allowed ${fmt(threshold)}`;
  return { metric, kind: 'max_drop', value, ...(iv ? { interval: iv } : {}), threshold, baseline, passed, margin, message };
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
  /** `point` (default) or `interval` (needs `intervals`; a metric without one is compared as a point). */
  rule?: GateRule;
  /** The report's 95% intervals by metric (EvalReport.intervals.metrics). */
  intervals?: Readonly<Record<string, Interval>> | null;
}

interface Interval {
  low: number;
  high: number;
}

/** Checks metrics against the thresholds (and the baseline, when given). */
export function evaluateGate(options: EvaluateGateOptions): GateResult {
  const { metrics, thresholds, baseline } = options;
  const rule = options.rule ?? 'point';
  const ivOf = (metric: MetricKey): Interval | undefined => {
    const iv = rule === 'interval' ? options.intervals?.[metric] : undefined;
    return iv ? { low: iv.low, high: iv.high } : undefined;
  };
  const checks: GateCheck[] = [];
  for (const [metric, threshold] of Object.entries(thresholds.min) as [MetricKey, number][]) {
    checks.push(boundCheck('min', metric, threshold, metrics[metric] ?? undefined, ivOf(metric)));
  }
  for (const [metric, threshold] of Object.entries(thresholds.max) as [MetricKey, number][]) {
    checks.push(boundCheck('max', metric, threshold, metrics[metric] ?? undefined, ivOf(metric)));
  }
  if (baseline) {
    for (const [metric, threshold] of Object.entries(thresholds.max_drop) as [MetricKey, number][]) {
      checks.push(dropCheck(metric, threshold, metrics[metric] ?? undefined, baseline[metric] ?? undefined, ivOf(metric)));
    }
  }
  return { passed: checks.every((c) => c.passed), rule, checks, baselineUsed: Boolean(baseline) };
}
