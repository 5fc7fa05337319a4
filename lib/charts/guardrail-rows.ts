/**
 * The matrix page's guardrails table: per setting, the cases where a guardrail fired, the mean
 * retries, the answers delivered with warnings and each guardrail's own rate. Empty when no setting
 * ran under guardrails (the page then shows nothing new).
 */
import { orderSettings, readMetrics, type SettingMetrics } from './matrix-view';

export interface GuardrailRow {
  setting: string;
  violationRate: number | null;
  meanRetries: number | null;
  warnedRate: number | null;
  /** Guardrail name → share of the cases it was on in which it fired. */
  perGuardrail: Record<string, number>;
}

export function guardrailRows(settings: readonly SettingMetrics[]): { names: string[]; rows: GuardrailRow[] } {
  const rows: GuardrailRow[] = [];
  for (const s of orderSettings(settings)) {
    const m = readMetrics(s.metrics);
    if (m.guardrail_violation_rate === undefined) continue;
    const raw = (s.metrics as { guardrail_violation_rates?: unknown }).guardrail_violation_rates;
    rows.push({
      setting: s.setting,
      violationRate: m.guardrail_violation_rate,
      meanRetries: m.mean_guardrail_retries ?? null,
      warnedRate: m.warned_answer_rate ?? null,
      perGuardrail: readMetrics(raw),
    });
  }
  const names = [...new Set(rows.flatMap((r) => Object.keys(r.perGuardrail)))].sort();
  return { names, rows };
}
