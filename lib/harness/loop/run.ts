/**
 * The harness loop: an explicit state machine PLAN → CALL_MODEL → EXECUTE_TOOLS → OBSERVE → … →
 * DONE | FAILED around a Converse-shaped model client (SPEC.md §11.4; ARCHITECTURE.md draws it).
 * Guards return verdicts; a trip is a normal outcome, recorded as a guard event, never an exception.
 * A call that needs a reviewer's approval pauses the run with a checkpoint; `resumeHarness`
 * continues it later, in any process, as if the loop had never stopped.
 *
 * Each state's work lives beside this file: pre-call.ts (the guards before a model call),
 * model-call.ts (CALL_MODEL), execute-calls.ts (EXECUTE_TOOLS → OBSERVE), resume.ts (a checkpoint
 * back into a run), progress.ts (onStep), result.ts and run-cost.ts (what a run returns).
 */
import { randomUUID } from 'node:crypto';
import type { ApprovalResolution } from '../guards/call-policy';
import { emptyAnswerStop, isEmptyAnswer, modelStopGuard } from '../guards/model-stop';
import type { RunResult } from '../types';
import { executeCalls, type StepOutcome } from './execute-calls';
import { finishWithGuardrails } from './guardrails-finish';
import { callModel } from './model-call';
import { driver, refreshSpecs, type Driver, type HarnessOptions, type RunInput } from './options';
import { preCallChecks } from './pre-call';
import { reportStep } from './progress';
import { runResult, type RunIdentity } from './result';
import { boundResolution, restoreRun } from './resume';
import { RunState } from './run-state';
import { instant } from './timing';

/** One iteration: the pre-call guards, one model turn, and its tool calls. */
async function iterate(d: Driver, run: RunState, stateVersion: number): Promise<StepOutcome> {
  run.step += 1;
  await refreshSpecs(d);
  const pre = preCallChecks(d, run);
  if (pre.stop) {
    run.stopWith(pre.stop);
    return { kind: 'stopped' };
  }
  const response = await callModel(d, run, pre.contextTokens);
  if (!response) return { kind: 'stopped' };
  // A truncated, refused or filtered answer is recorded as a turn but never completes the run.
  const unfinished = modelStopGuard(response, d.options.config.maxTokens);
  if (unfinished.stop) {
    run.stopWith(unfinished);
    return { kind: 'stopped' };
  }
  // An empty answer is never a completion: asked once more, then a termination of its own.
  if (isEmptyAnswer(response)) {
    run.emptyAnswers += 1;
    if (run.emptyAnswers === 1) {
      run.move('CALL_MODEL', 'empty answer: the model is asked once more');
      return { kind: 'done' };
    }
    const verdict = emptyAnswerStop(response);
    if (verdict.stop) run.stopWith(verdict);
    return { kind: 'stopped' };
  }
  run.emptyAnswers = 0;
  if (response.toolCalls.length === 0) {
    let answer = (response.text ?? '').trim();
    const guardrails = d.options.config.guardrails;
    if (guardrails) {
      const outcome = await finishWithGuardrails(d, run, guardrails, answer);
      if (outcome.kind === 'failed') return { kind: 'stopped' };
      if (outcome.kind === 'retry') {
        run.move('CALL_MODEL', 'guardrails: told the agent what is missing');
        return { kind: 'done' };
      }
      answer = outcome.answer;
    }
    run.finalAnswer = answer;
    run.move('DONE', `stop_reason:${response.stopReason}`);
    return { kind: 'stopped' };
  }
  run.move('EXECUTE_TOOLS', `${response.toolCalls.length} tool call(s)`);
  return executeCalls(d, run, response.toolCalls, { blocks: [], records: [] }, null, stateVersion);
}

/** Iterates while the run goes on, reporting each finished step. */
async function loop(d: Driver, run: RunState, stateVersion: number, id: RunIdentity): Promise<void> {
  while (run.state === 'CALL_MODEL') {
    const outcome = await iterate(d, run, stateVersion);
    if (outcome.kind !== 'done') return;
    await reportStep(d, run, id);
  }
}

/** Runs the agent loop on one query from a clean executor. */
export async function runHarness(input: RunInput, options: HarnessOptions): Promise<RunResult> {
  await options.executor.reset();
  const d = await driver(input, options);
  const id: RunIdentity = { runId: options.runId ?? randomUUID(), startedAt: d.clock.isoNow() };
  try {
    const run = new RunState(input.query, () => instant(d.timeline));
    run.move('CALL_MODEL', 'start');
    // Reported once before the first model call too, so a store holds the run from its start.
    await reportStep(d, run, id);
    await loop(d, run, 0, id);
    return runResult(d, run, id);
  } finally {
    d.deadline.dispose();
  }
}

/**
 * Continues a paused run from its checkpoint with a reviewer's resolution of the awaited call
 * (already re-validated by the caller). The executor is not reset: the run is the same run.
 */
export async function resumeHarness(paused: RunResult, resolution: ApprovalResolution, options: HarnessOptions): Promise<RunResult> {
  const cp = paused.checkpoint;
  if (paused.status !== 'paused' || cp === null) throw new Error(`run ${paused.runId} is not paused`);
  const d = await driver({ query: paused.query, caseId: paused.caseId }, options, cp);
  const id: RunIdentity = { runId: paused.runId, startedAt: paused.startedAt };
  try {
    const { run, step } = restoreRun(paused, cp, () => instant(d.timeline));
    run.move('EXECUTE_TOOLS', `approval ${resolution.outcome}: ${cp.awaiting.name}`);
    const outcome = await executeCalls(d, run, cp.pendingCalls, step, boundResolution(resolution, cp), cp.stateVersion);
    if (outcome.kind === 'done') await loop(d, run, cp.stateVersion, id);
    return runResult(d, run, id);
  } finally {
    d.deadline.dispose();
  }
}
