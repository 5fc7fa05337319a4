/**
 * What a run's guardrails did, read from its record: which were on, which fired (a refusal, a
 * violation, a finding, a failed judge), how many retries they gave, and whether the answer was
 * delivered with warnings. Evaluation metrics and the dashboard read it; null for a run without guardrails.
 */
import { isGuardrailEvent, type RunResult } from '../types';
import { guardrailsOn, type GuardrailName } from './config';

export interface GuardrailSummary {
  on: GuardrailName[];
  /** Guardrails that fired at least once in the run, in GUARDRAIL_NAMES order. */
  violated: GuardrailName[];
  retries: number;
  /** The answer was delivered with its violations recorded (`on_violation: warn`). */
  warned: boolean;
  /** The run ended with GUARDRAIL. */
  failed: boolean;
}

const FIRED = new Set(['refused', 'violated', 'finding', 'judge_failed']);

export function guardrailSummary(run: Pick<RunResult, 'guardrails' | 'trajectory' | 'terminationReason'>): GuardrailSummary | null {
  if (!run.guardrails) return null;
  const on = guardrailsOn(run.guardrails);
  const events = run.trajectory.filter(isGuardrailEvent);
  const fired = new Set(events.filter((e) => FIRED.has(e.action)).map((e) => e.guardrail));
  return {
    on,
    violated: on.filter((g) => fired.has(g)),
    retries: events.filter((e) => e.action === 'retry').length,
    warned: events.some((e) => e.action === 'warned'),
    failed: run.terminationReason === 'GUARDRAIL',
  };
}
