/**
 * The weakness matrix shaped for the page: grouped-bar data of the gate metrics per setting, the
 * delta table against `none` with the direction of each change, the per-category breakdown, and a
 * comparison of two matrix runs. Metric values arrive as stored JSON and are read defensively.
 */
import { GuardrailsSchema, guardrailsOn } from '../harness/guardrails';
import { FAKE_MODEL, NOISY_FAKE_MODEL } from '../harness/browser';
import { WEAKNESS_ORDER } from '../stockroom/browser';
import { MATRIX_TABLE_METRICS } from '../eval/browser';
import { round4 } from '../eval/browser';

export const BASE_SETTING = 'none';

/** The matrix rows in published order (lib/eval/matrix's MATRIX_SETTINGS, which reads files, so not imported into the browser). */
export const MATRIX_SETTINGS: readonly string[] = [BASE_SETTING, ...WEAKNESS_ORDER];

/** The gate metrics drawn as bars (all rates in [0, 1] where higher is better, so they share an axis). */
export const CHART_METRICS = ['tool_selection_accuracy', 'answer_correctness', 'termination_match_rate', 'must_not_call_ok_rate', 'loop_rate'] as const;

/** Higher-is-better rates, drawn together. */
export const RATE_CHART_METRICS = ['tool_selection_accuracy', 'answer_correctness', 'termination_match_rate', 'must_not_call_ok_rate'] as const;
/** Lower-is-better measures, each drawn on its own scale so a small loop rate is not lost among rates near 1. */
export const LOWER_CHART_METRICS = ['loop_rate', 'mean_input_tokens'] as const;

/** The columns of the delta table: the published table's metrics. */
export const TABLE_METRICS: readonly string[] = MATRIX_TABLE_METRICS;

/** Metrics where a fall is an improvement. */
const LOWER_IS_BETTER = new Set([
  'loop_rate',
  'invalid_call_rate',
  'blocked_call_rate',
  'compaction_rate',
  'mean_model_calls',
  'mean_input_tokens',
  'mean_output_tokens',
  'total_cost_usd',
]);

/** Human labels for metric keys. */
export const METRIC_LABELS: Record<string, string> = {
  tool_selection_accuracy: 'Tool selection',
  argument_correctness: 'Arguments',
  trajectory_match_rate: 'Trajectory match',
  answer_correctness: 'Answer correct',
  termination_match_rate: 'Termination match',
  must_not_call_ok_rate: 'Must-not-call OK',
  loop_rate: 'Loop rate',
  mean_input_tokens: 'Mean input tokens',
};

export const metricLabel = (key: string): string => METRIC_LABELS[key] ?? key.replaceAll('_', ' ');

/** What each metric measures, in the course's terms (SPEC §12), for a card's or a column's description. */
export const METRIC_MEANINGS: Record<string, string> = {
  tool_selection_accuracy: 'cases whose expected call sequence was matched by name (course §12.3)',
  argument_correctness: 'expected calls matched with the expected arguments, averaged over cases (course §12.4)',
  trajectory_match_rate: 'cases with both the call sequence and its arguments matched',
  answer_correctness: 'cases whose answer holds every expected fact and no forbidden one (course §12.5)',
  termination_match_rate: 'cases that ended the way the case expects',
  must_not_call_ok_rate: 'cases that executed no forbidden call',
  loop_rate: 'cases with repeated identical calls',
  mean_input_tokens: 'input tokens per case (summed over its model calls; output tokens not included)',
};

/** Whether a metric is a share of cases (0–1), whose value reads as "k of n cases". */
export const isCaseRate = (metric: string): boolean => metric.endsWith('_rate') || metric === 'tool_selection_accuracy' || metric === 'answer_correctness';

/** A rate over `n` cases as the count it stands for: "58 of 61" (null when n is unknown or 0). */
export function rateCount(rate: number | null | undefined, n: number | null | undefined): string | null {
  if (rate === null || rate === undefined || !n) return null;
  return `${Math.round(rate * n)} of ${n}`;
}

export type Direction = 'better' | 'worse' | 'same';

/**
 * A mean token count that moves by less than this fraction of its baseline has not moved: the
 * scripted model's answers differ by a token or two between settings, which painted −3.77 tokens
 * green.
 */
export const TOKEN_NOISE_FRACTION = 0.02;
/** A single case's token count moves only when it changes by at least this fraction of its baseline. */
export const CASE_TOKEN_NOISE_FRACTION = 0.1;

const isTokenMetric = (metric: string) => metric.startsWith('mean_') && metric.endsWith('_tokens');

/**
 * Whether a change of `delta` in `metric` is good news, bad news or none (4 dp). With `baseline`,
 * a token mean that moved by less than TOKEN_NOISE_FRACTION of it counts as unchanged.
 */
export function directionOf(metric: string, delta: number | null, baseline?: number): Direction {
  if (delta === null || round4(delta) === 0) return 'same';
  if (baseline !== undefined && isTokenMetric(metric) && Math.abs(delta) < Math.abs(baseline) * TOKEN_NOISE_FRACTION) return 'same';
  const up = delta > 0;
  return up !== LOWER_IS_BETTER.has(metric) ? 'better' : 'worse';
}

export type Metrics = Record<string, number>;

/** Numeric entries of a stored metrics object (anything else is ignored). */
export function readMetrics(value: unknown): Metrics {
  const out: Metrics = {};
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return out;
  for (const [k, v] of Object.entries(value)) if (typeof v === 'number' && Number.isFinite(v)) out[k] = v;
  return out;
}

/** Settings in matrix order (`none` first, then the flags), unknown ones after, alphabetically. */
export function orderSettings<T extends { setting: string }>(rows: readonly T[]): T[] {
  const rank = (s: string) => {
    const i = MATRIX_SETTINGS.indexOf(s);
    return i === -1 ? MATRIX_SETTINGS.length : i;
  };
  return [...rows].sort((a, b) => rank(a.setting) - rank(b.setting) || a.setting.localeCompare(b.setting));
}

export interface SettingMetrics {
  setting: string;
  metrics: unknown;
}

/** One bar group per setting, one bar per metric (missing values are 0 so the group keeps its shape). */
export function groupedBarData(settings: readonly SettingMetrics[], metrics: readonly string[] = CHART_METRICS): Array<Record<string, string | number>> {
  return orderSettings(settings).map((s) => {
    const m = readMetrics(s.metrics);
    const row: Record<string, string | number> = { setting: s.setting };
    for (const key of metrics) row[key] = m[key] ?? 0;
    return row;
  });
}

export interface DeltaCell {
  metric: string;
  value: number | null;
  delta: number | null;
  direction: Direction;
}

export interface DeltaRow {
  setting: string;
  cells: DeltaCell[];
}

/** Each setting's value and change from `none` for every table metric. */
export function deltaRows(settings: readonly SettingMetrics[], metrics: readonly string[] = TABLE_METRICS): DeltaRow[] {
  const base = readMetrics(settings.find((s) => s.setting === BASE_SETTING)?.metrics);
  return orderSettings(settings).map((s) => {
    const m = readMetrics(s.metrics);
    return {
      setting: s.setting,
      cells: metrics.map((metric) => {
        const value = m[metric] ?? null;
        const b = base[metric];
        const delta = value === null || b === undefined || s.setting === BASE_SETTING ? null : round4(value - b);
        return { metric, value, delta, direction: directionOf(metric, delta, b) };
      }),
    };
  });
}

/** Whether one case's score moved enough to list it (token counts must move by CASE_TOKEN_NOISE_FRACTION). */
export function caseMoved(scoreKey: string, baseline: unknown, value: unknown): boolean {
  if (JSON.stringify(baseline) === JSON.stringify(value)) return false;
  if (/tokens$/i.test(scoreKey) && typeof baseline === 'number' && typeof value === 'number')
    return Math.abs(value - baseline) >= Math.max(1, Math.abs(baseline) * CASE_TOKEN_NOISE_FRACTION);
  return true;
}

/** What the matrix calls the deterministic fake model, so a reader does not take `fake` for a provider's model. */
export const FAKE_MODEL_LABEL = `${FAKE_MODEL} model (deterministic)`;

/**
 * The model a stored config names: `<provider>:<model id>` as stored; the fake model (stored as `fake`,
 * or, in configs written before the model was stored, only as mock mode) by what it is.
 */
function modelLabel(model: string | null, mode: unknown): string {
  if (model === FAKE_MODEL || (model === null && mode === 'mock')) return FAKE_MODEL_LABEL;
  if (model === NOISY_FAKE_MODEL) return `${NOISY_FAKE_MODEL} model (seeded, stochastic)`;
  if (model !== null) return model;
  return typeof mode === 'string' ? `${mode} model` : 'model not recorded';
}

/** What a suite ran on besides its weakness flags: transport, guards, payload wrappers and model. */
export function harnessSummary(config: unknown): string {
  const c = config !== null && typeof config === 'object' && !Array.isArray(config) ? (config as Record<string, unknown>) : {};
  const list = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
  const model = modelLabel(typeof c.model === 'string' ? c.model : typeof c.modelId === 'string' ? c.modelId : null, c.mode);
  const guards = list(c.guards);
  const wrappers = list(c.payloadWrappers);
  const rails = GuardrailsSchema.safeParse(c.guardrails);
  const railsOn = rails.success ? guardrailsOn(rails.data) : [];
  return [
    typeof c.transport === 'string' ? c.transport : 'transport not recorded',
    guards.length ? `guards: ${guards.join(', ')}` : 'no extra guards',
    ...(wrappers.length ? [`wrappers: ${wrappers.join(', ')}`] : []),
    ...(railsOn.length ? [`guardrails: ${railsOn.join(', ')}`] : []),
    model,
  ].join(' · ');
}

/** A suite's runs per case as a list or a heading says it: "1 epoch", "5 epochs". */
export const epochsText = (epochs: number): string => `${epochs} epoch${epochs === 1 ? '' : 's'}`;

/** A stored suite in a picker: when, on what, how (with its epochs: runs per case), and its status last. */
export function suiteOptionLabel(s: { createdAt: string; datasetName: string; config: unknown; epochs: number; status: string }): string {
  return `${s.createdAt.replace('T', ' ').slice(0, 19)} · ${s.datasetName} · ${harnessSummary(s.config)} · ${epochsText(s.epochs)} · ${s.status}`;
}

/** The per-category metrics a report keeps. */
export const CATEGORY_METRICS = ['tool_selection_accuracy', 'answer_correctness', 'termination_match_rate'] as const;

export interface CategoryRow {
  category: string;
  cases: number;
  /** Per setting, per category metric: value and change from `none`. */
  settings: Array<{ setting: string; cells: DeltaCell[] }>;
}

/** One row per category across settings, each cell with its change from `none`. */
export function categoryRows(settings: ReadonlyArray<{ setting: string; byCategory: unknown }>): CategoryRow[] {
  const parsed = orderSettings(settings).map((s) => {
    const by = s.byCategory !== null && typeof s.byCategory === 'object' && !Array.isArray(s.byCategory) ? s.byCategory : {};
    return { setting: s.setting, by: Object.fromEntries(Object.entries(by).map(([c, v]) => [c, readMetrics(v)])) };
  });
  const base = parsed.find((p) => p.setting === BASE_SETTING)?.by ?? {};
  const categories = [...new Set(parsed.flatMap((p) => Object.keys(p.by)))].sort();
  return categories.map((category) => ({
    category,
    cases: Math.max(0, ...parsed.map((p) => p.by[category]?.cases ?? 0)),
    settings: parsed.map((p) => ({
      setting: p.setting,
      cells: CATEGORY_METRICS.map((metric) => {
        const value = p.by[category]?.[metric] ?? null;
        const b = base[category]?.[metric];
        const delta = value === null || b === undefined || p.setting === BASE_SETTING ? null : round4(value - b);
        return { metric, value, delta, direction: directionOf(metric, delta, b) };
      }),
    })),
  }));
}

/**
 * The per-case score behind a suite metric, for "which cases moved" (case scores are camelCase;
 * suite metrics are the reference's snake_case names). Null when no single case score explains it.
 */
export function caseScoreKey(metric: string): string | null {
  const map: Record<string, string> = {
    tool_selection_accuracy: 'toolSelection',
    argument_correctness: 'argumentCorrectness',
    trajectory_match_rate: 'trajectoryMatch',
    answer_correctness: 'answerCorrectnessDeterministic',
    answer_correctness_deterministic: 'answerCorrectnessDeterministic',
    termination_match_rate: 'terminationMatch',
    must_not_call_ok_rate: 'mustNotCallOk',
    step_count_ok_rate: 'stepCountOk',
    loop_rate: 'loopFindings',
    invalid_call_rate: 'invalidCalls',
    blocked_call_rate: 'blockedCalls',
    compaction_rate: 'compactions',
    mean_model_calls: 'modelCalls',
    mean_input_tokens: 'inputTokens',
    mean_output_tokens: 'outputTokens',
  };
  return map[metric] ?? null;
}

export interface RunComparisonCell {
  metric: string;
  a: number | null;
  b: number | null;
  /** b − a (4 dp). */
  delta: number | null;
  direction: Direction;
}

/** Two matrix runs side by side: per setting present in either, per table metric, b − a. */
export function compareMatrixRuns(
  a: readonly SettingMetrics[],
  b: readonly SettingMetrics[],
  metrics: readonly string[] = TABLE_METRICS,
): Array<{ setting: string; cells: RunComparisonCell[] }> {
  const settings = orderSettings([...new Set([...a, ...b].map((s) => s.setting))].map((setting) => ({ setting })));
  return settings.map(({ setting }) => {
    const ma = readMetrics(a.find((s) => s.setting === setting)?.metrics);
    const mb = readMetrics(b.find((s) => s.setting === setting)?.metrics);
    return {
      setting,
      cells: metrics.map((metric) => {
        const va = ma[metric] ?? null;
        const vb = mb[metric] ?? null;
        const delta = va === null || vb === null ? null : round4(vb - va);
        return { metric, a: va, b: vb, delta, direction: directionOf(metric, delta, va ?? undefined) };
      }),
    };
  });
}

/** `+0.12`, `-0.34`, `±0` at the given decimals. */
export function formatDelta(delta: number | null, decimals = 2): string {
  if (delta === null) return '';
  const text = Math.abs(delta).toFixed(decimals);
  if (Number(text) === 0) return '±0';
  return `${delta > 0 ? '+' : '−'}${text}`;
}

/** A drilled-into cell of the matrix: a setting's metric, overall or for one category. */
export interface MatrixCell {
  setting: string;
  metric: string;
  category: string | null;
}

/** `?cell=setting~metric[~category]`: the cell a matrix link opens with (null for anything else). */
export function parseCell(value: string | null): MatrixCell | null {
  const [setting, metric, category, ...rest] = (value ?? '').split('~');
  const ok = (v: string | undefined) => v !== undefined && /^[a-z_+]{1,200}$/.test(v);
  return ok(setting) && ok(metric) && rest.length === 0 && (category === undefined || ok(category))
    ? { setting: setting!, metric: metric!, category: category ?? null }
    : null;
}

/** The `?cell=` value of a cell (parseCell's inverse). */
export const cellParam = (c: MatrixCell): string => [c.setting, c.metric, ...(c.category ? [c.category] : [])].join('~');

/**
 * A setting's axis label in lines of at most `maxChars`, broken after `_` or `+` (never inside a
 * word): recharts drops tick labels that would overlap, which hid ambiguous_tool_desc on the small
 * charts and three of five settings on a phone. A single part longer than `maxChars` keeps a line
 * of its own.
 */
export function wrapLabel(label: string, maxChars: number): string[] {
  const parts = label.match(/[^_+]+[_+]?|[_+]/g) ?? [label];
  const lines: string[] = [];
  for (const part of parts) {
    const last = lines.length - 1;
    if (last >= 0 && (lines[last]! + part).length <= maxChars) lines[last] += part;
    else lines.push(part);
  }
  return lines;
}
