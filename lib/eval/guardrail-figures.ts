/**
 * The guardrails' figures of a suite as lines of text (eval summary, gate output and its markdown);
 * empty when the suite ran without guardrails, so those outputs stay exactly as they were.
 */
import type { AggregateMetrics } from './aggregate';

export function guardrailFigureLines(m: AggregateMetrics): string[] {
  if (m.guardrail_violation_rate === undefined) return [];
  const per = Object.entries(m.guardrail_violation_rates ?? {}).map(([name, rate]) => `${name} ${rate}`);
  return [
    `guardrails: violation rate ${m.guardrail_violation_rate}; mean retries ${m.mean_guardrail_retries ?? '—'}; answers delivered with warnings ${m.warned_answer_rate ?? '—'}`,
    ...(per.length > 0 ? [`  fired, per guardrail (share of the cases it was on): ${per.join(', ')}`] : []),
  ];
}
