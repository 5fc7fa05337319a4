/**
 * Pure shaping of the weakness matrix: deltas against the `none` row and the printed table of the
 * gate metrics (the layout of the published table in PROVENANCE.md).
 */
import { GUARDRAIL_METRIC_KEYS, METRIC_KEYS, type AggregateMetrics, type MetricKey } from './aggregate';
import { round4 } from './numbers';

/** The setting every delta is measured against. */
export const BASE_SETTING = 'none';

/** The columns of the published table, in order. */
export const MATRIX_TABLE_METRICS = [
  'tool_selection_accuracy',
  'answer_correctness',
  'termination_match_rate',
  'loop_rate',
  'must_not_call_ok_rate',
  'mean_input_tokens',
] as const satisfies readonly MetricKey[];

/** Per metric: this setting's value minus the base setting's (4 dp), or null when either is missing. */
export type MetricDeltas = Record<MetricKey, number | null>;

/** Deltas of every setting against `none` (the base row's deltas are all 0). */
export function computeDeltas(metricsBySetting: Readonly<Record<string, AggregateMetrics>>): Record<string, MetricDeltas> {
  const base = metricsBySetting[BASE_SETTING];
  const out: Record<string, MetricDeltas> = {};
  for (const [setting, metrics] of Object.entries(metricsBySetting)) {
    const row = {} as MetricDeltas;
    for (const key of METRIC_KEYS) {
      const value = metrics[key];
      const baseValue = base?.[key];
      // A matrix without guardrails keeps exactly the deltas it had.
      if (value === undefined && baseValue === undefined && (GUARDRAIL_METRIC_KEYS as readonly string[]).includes(key)) continue;
      row[key] = value == null || baseValue == null ? null : round4(value - baseValue);
    }
    out[setting] = row;
  }
  return out;
}

export interface MatrixTableOptions {
  /** Append `(+0.12)` / `(-0.36)` to cells that differ from `none` at two decimals. Default true. */
  deltas?: boolean;
}

function cell(value: number | undefined, delta: number | null | undefined, showDelta: boolean): string {
  if (value === undefined) return '—';
  const text = value.toFixed(2);
  if (!showDelta || delta == null || delta.toFixed(2) === '0.00' || delta.toFixed(2) === '-0.00') return text;
  return `${text} (${delta > 0 ? '+' : ''}${delta.toFixed(2)})`;
}

/**
 * A markdown table with one row per setting (in the given order) and the six gate metrics at two
 * decimals, as in PROVENANCE.md; with deltas, each changed cell also shows its change from `none`.
 */
export function formatMatrixTable(
  metricsBySetting: Readonly<Record<string, AggregateMetrics>>,
  options: MatrixTableOptions = {},
): string {
  const showDeltas = options.deltas ?? true;
  const deltas = computeDeltas(metricsBySetting);
  const lines = [
    `| flags | ${MATRIX_TABLE_METRICS.join(' | ')} |`,
    `|${'---|'.repeat(MATRIX_TABLE_METRICS.length + 1)}`,
  ];
  for (const [setting, metrics] of Object.entries(metricsBySetting)) {
    const cells = MATRIX_TABLE_METRICS.map((key) =>
      cell(metrics[key], deltas[setting]?.[key], showDeltas && setting !== BASE_SETTING),
    );
    lines.push(`| ${setting} | ${cells.join(' | ')} |`);
  }
  return lines.join('\n');
}

/**
 * The guardrails' table (only when a setting ran under guardrails; null otherwise): per setting, the
 * cases where a guardrail fired, the mean retries, the answers delivered with warnings, and the
 * violation rate of each guardrail.
 */
export function formatGuardrailTable(metricsBySetting: Readonly<Record<string, AggregateMetrics>>): string | null {
  const rows = Object.entries(metricsBySetting).filter(([, m]) => m.guardrail_violation_rate !== undefined);
  if (rows.length === 0) return null;
  const names = [...new Set(rows.flatMap(([, m]) => Object.keys(m.guardrail_violation_rates ?? {})))].sort();
  const cols = [...GUARDRAIL_METRIC_KEYS, ...names.map((n) => `${n} fired`)];
  const lines = [`| flags | ${cols.join(' | ')} |`, `|${'---|'.repeat(cols.length + 1)}`];
  for (const [setting, m] of rows) {
    const cells = [...GUARDRAIL_METRIC_KEYS.map((k) => cell(m[k], null, false)), ...names.map((n) => cell(m.guardrail_violation_rates?.[n], null, false))];
    lines.push(`| ${setting} | ${cells.join(' | ')} |`);
  }
  return lines.join('\n');
}
