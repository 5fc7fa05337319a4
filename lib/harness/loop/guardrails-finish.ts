/**
 * The guardrails' finish-time checks, run when the agent tries to answer (CALL_MODEL with no tool
 * calls). Cheap deterministic checks first (finish rules, then detectors on the answer); the LLM
 * guard only when those pass. Unmet: the agent is told in words what is missing and gets another
 * turn (up to `max_retries`), or the run fails with GUARDRAIL, or the answer is delivered with its
 * violations recorded — as `on_violation` says. Every check is a trajectory event.
 */
import type { Guardrails } from '../guardrails/config';
import { findingRecord, redactText, scanText, type Finding } from '../guardrails/detectors';
import { judgeAnswer } from '../guardrails/llm-guard';
import { checkFinishRules } from '../guardrails/rules';
import type { DetectorName } from '../guardrails/config';
import type { GuardrailEvent } from '../types';
import { userMessage } from './messages';
import type { Driver } from './options';
import type { RunState } from './run-state';
import { addCallUsage, estimateFor, reported } from './usage';

export type FinishOutcome = { kind: 'accept'; answer: string } | { kind: 'retry' } | { kind: 'failed' };

interface Violation {
  guardrail: string;
  detail: string;
}

const DETECTOR_WORDS: Record<DetectorName, string> = {
  no_pii: 'personal data',
  no_secrets: 'a secret',
  no_injection: 'instruction-like text',
};

/** The words the agent is told before its next turn. */
export function retryMessage(violations: readonly Violation[]): string {
  return `Before your answer counts: ${violations.map((v) => v.detail).join('; ')}. Please try again.`;
}

function detectorsOn(g: Guardrails): DetectorName[] {
  return (Object.keys(g.detectors) as DetectorName[]).filter((k) => g.detectors[k]);
}

/** The answer's text in the last model turn and assistant message, redacted (a secret is not kept in the run). */
function redactLastTurn(run: RunState, original: string, redacted: string): void {
  for (let i = run.trajectory.length - 1; i >= 0; i--) {
    const s = run.trajectory[i]!;
    if (s.kind !== 'model_turn') continue;
    if (s.text !== null) run.trajectory[i] = { ...s, text: s.text.split(original).join(redacted) };
    break;
  }
  const last = run.messages[run.messages.length - 1];
  if (last?.role === 'assistant') {
    run.messages = [
      ...run.messages.slice(0, -1),
      { role: 'assistant', content: last.content.map((b) => ('text' in b ? { text: b.text.split(original).join(redacted) } : b)) },
    ];
  }
}

function checkAnswerDetectors(g: Guardrails, answer: string, event: (e: Omit<GuardrailEvent, 'kind' | 'step'>) => void, violations: Violation[]): string {
  const detectors = detectorsOn(g);
  if (detectors.length === 0) return answer;
  const findings = scanText(answer, detectors);
  const mask = (s: string) => redactText(s, scanText(s, detectors));
  let redactable: Finding[] = [];
  for (const detector of detectors) {
    const mine = findings.filter((f) => f.detector === detector);
    if (mine.length === 0) {
      event({ guardrail: detector, action: 'passed', detail: 'nothing found in the answer', source: 'answer' });
      continue;
    }
    const redact = g.detectors[detector]?.redact === true;
    const kinds = [...new Set(mine.map((f) => f.kind))].join(', ');
    event({
      guardrail: detector,
      action: redact ? 'finding' : 'violated',
      detail: `${mine.length} finding(s) in the answer: ${kinds}${redact ? ' (redacted)' : ''}`,
      source: 'answer',
      findings: mine.map((f) => findingRecord(answer, f, mask)),
      redacted: redact,
    });
    if (redact) redactable = [...redactable, ...mine];
    else violations.push({ guardrail: detector, detail: `your answer contains ${DETECTOR_WORDS[detector]} (${kinds}); leave it out` });
  }
  return redactable.length > 0 ? redactText(answer, redactable) : answer;
}

/** Checks an answer against the run's guardrails and applies `on_violation`. */
export async function finishWithGuardrails(d: Driver, run: RunState, g: Guardrails, original: string): Promise<FinishOutcome> {
  const event = (e: Omit<GuardrailEvent, 'kind' | 'step'>) => run.trajectory.push({ kind: 'guardrail', step: run.step, ...e });
  const violations: Violation[] = [];

  for (const r of checkFinishRules(g, original, run.records)) {
    event({ guardrail: r.rule, action: r.met ? 'passed' : 'violated', detail: r.detail, source: 'answer' });
    if (!r.met) violations.push({ guardrail: r.rule, detail: r.detail });
  }
  const answer = checkAnswerDetectors(g, original, event, violations);

  if (violations.length === 0 && g.llm_guard && d.options.guardModel) {
    const j = await judgeAnswer(d.options.guardModel, g.llm_guard, answer, d.options.signal);
    // The judge's call is the run's spend too: counted under its purpose, seen by the budgets.
    if (j.call) addCallUsage(run.usage, 'guardrail', j.call, false, reported(j.call) ? null : estimateFor(d.options.tokenEstimator ?? d.options.guardModel.tokenEstimator, { ...j.call.sent, tools: [] }, j.call.response));
    if (j.ok) {
      event({ guardrail: 'llm_guard', action: j.violated ? 'violated' : 'passed', detail: j.verdict.reason, source: 'answer', verdict: j.verdict });
      if (j.violated) violations.push({ guardrail: 'llm_guard', detail: `your answer breaks the policy "${g.llm_guard.policy}" (${j.verdict.reason})` });
    } else {
      const decided = j.violated ? 'on_error block: the answer does not count' : 'on_error allow: the answer passes unjudged';
      event({ guardrail: 'llm_guard', action: 'judge_failed', detail: `${j.error}; ${decided}`, source: 'answer' });
      if (j.violated) violations.push({ guardrail: 'llm_guard', detail: `the policy judge could not confirm your answer keeps the policy "${g.llm_guard.policy}"` });
    }
  }

  if (answer !== original) redactLastTurn(run, original, answer);
  if (violations.length === 0) return { kind: 'accept', answer };

  const names = [...new Set(violations.map((v) => v.guardrail))];
  const unmet = violations.map((v) => `${v.guardrail} (${v.detail})`).join('; ');
  if (g.on_violation === 'warn') {
    event({ guardrail: 'guardrails', action: 'warned', detail: `delivered with violations: ${names.join(', ')}`, source: 'answer' });
    return { kind: 'accept', answer };
  }
  if (g.on_violation === 'retry' && run.guardrailRetries < g.max_retries) {
    run.guardrailRetries += 1;
    const message = retryMessage(violations);
    event({ guardrail: 'guardrails', action: 'retry', detail: `told the agent what is missing: ${names.join(', ')}`, message, attempt: run.guardrailRetries });
    run.messages = [...run.messages, userMessage(message)];
    return { kind: 'retry' };
  }
  const why = g.on_violation === 'retry' ? `still unmet after ${run.guardrailRetries} retr${run.guardrailRetries === 1 ? 'y' : 'ies'}` : 'unmet';
  event({ guardrail: 'guardrails', action: 'failed', detail: `${why}: ${names.join(', ')}`, source: 'answer' });
  run.stopWith({ stop: true, guard: 'guardrails', reason: 'GUARDRAIL', detail: `${why}: ${unmet}` });
  return { kind: 'failed' };
}
