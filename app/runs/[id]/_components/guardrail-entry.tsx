'use client';
/**
 * One guardrail event where it happened in the run: a refused call, a check, the words the agent was
 * told before another turn, a finding with its span highlighted (the value masked) and whether it
 * was redacted, the LLM guard's verdict, and the outcome. Everything is rendered as text.
 */
import type { GuardrailEvent } from '@/lib/harness/types';
import { guardrailTone } from './event-list';

const ACTION_LABEL: Record<GuardrailEvent['action'], string> = {
  refused: 'refused the call',
  passed: 'passed',
  violated: 'violated',
  retry: 'told the agent',
  warned: 'delivered with warnings',
  failed: 'ended the run',
  finding: 'found',
  judge_failed: 'judge failed',
};

const WHERE: Record<NonNullable<GuardrailEvent['source']>, string> = {
  answer: 'in the answer',
  tool_output: 'in tool output entering the context',
  tool_call: 'at a tool call',
};

export function GuardrailEntry({ item }: { item: GuardrailEvent }) {
  return (
    <div className={`entry guardrail ${guardrailTone(item.action)}`} data-testid="guardrail-entry" data-action={item.action}>
      <div className="row small">
        <strong>Guardrail: {item.guardrail}</strong>
        <span className={`badge ${guardrailTone(item.action)}`}>{ACTION_LABEL[item.action]}</span>
        {item.source ? <span className="muted">{WHERE[item.source]}</span> : null}
        {item.redacted ? <span className="badge info">redacted</span> : null}
      </div>
      <p className="small">{item.detail}</p>
      {item.message ? (
        <blockquote className="small" data-testid="guardrail-told">
          Told the agent{item.attempt ? ` (retry ${item.attempt})` : ''}: “{item.message}”
        </blockquote>
      ) : null}
      {item.verdict ? (
        <p className="small">
          Verdict: <span className={`badge ${item.verdict.severity === 'none' ? 'good' : 'bad'}`}>{item.verdict.severity}</span> {item.verdict.reason}
        </p>
      ) : null}
      {item.findings && item.findings.length > 0 ? (
        <ul className="small" data-testid="guardrail-findings">
          {item.findings.map((f, i) => (
            <li key={i}>
              <span className="badge warn">{f.kind}</span> at {f.start}–{f.end}:{' '}
              <span className="mono">
                …{f.before}
                <mark>{f.match}</mark>
                {f.after}…
              </span>
              {item.redacted ? <span className="muted"> → replaced by its kind</span> : null}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
