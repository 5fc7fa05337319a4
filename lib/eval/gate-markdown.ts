/**
 * The gate result as markdown, for a CI job summary or a pull-request comment.
 */
import type { AggregateMetrics } from './aggregate';
import { GATE_RULE_TEXT, type GateResult } from './gate';
import { guardrailFigureLines } from './guardrail-figures';
import { round4 } from './numbers';

const num = (x: number | null): string => (x === null ? '—' : String(round4(x)));

const RULE: Record<string, string> = { min: '≥', max: '≤', max_drop: 'drop ≤' };

/** A heading with the verdict, one table row per check, and the failures spelled out. */
export function formatGateMarkdown(result: GateResult, metrics?: AggregateMetrics): string {
  const lines = [
    `## Evaluation gate: ${result.passed ? 'PASSED' : 'FAILED'}`,
    '',
    // The point rule is how the gate always read; only the interval rule needs saying.
    ...(result.rule === 'interval' ? [`Rule: ${GATE_RULE_TEXT.interval}.`, ''] : []),
    '| metric | rule | value | baseline | result | failed by |',
    '|---|---|---|---|---|---|',
  ];
  for (const c of result.checks) {
    lines.push(
      `| ${c.metric} | ${RULE[c.kind]} ${num(c.threshold)} | ${num(c.value)}${c.interval ? ` [${num(c.interval.low)}, ${num(c.interval.high)}]` : ''} | ${num(c.baseline)} | ${c.passed ? 'pass' : '**fail**'} | ${
        c.passed ? '' : c.margin === null ? 'missing' : num(c.margin)
      } |`,
    );
  }
  if (!result.baselineUsed) lines.push('', '_No baseline given: drop checks were not run._');
  const guardrails = metrics ? guardrailFigureLines(metrics) : [];
  if (guardrails.length > 0) lines.push('', '### Guardrails', '', ...guardrails.map((l) => `- ${l.trim()}`));
  const failures = result.checks.filter((c) => !c.passed);
  if (failures.length > 0) {
    lines.push('', '### Failures', '', ...failures.map((c) => `- ${c.message}`));
  }
  return lines.join('\n') + '\n';
}
