/**
 * The loop's transitions of an imported agent, derived from its own steps (what the harness would
 * have logged), and how a trace's run ended. Each agent gets its own: none after its DONE or FAILED.
 */
import { TERMINATION_REASONS, type ModelTurn, type TerminationReason, type Transition, type TrajectoryStep } from '../../harness';
import { ATTR_ERROR_TYPE, STOCKROOM } from '../attributes';
import type { SpanRecord } from './span-record';
import { str } from './conventions/span-view';

/**
 * The loop's transitions for one agent's steps rebuilt from spans (what the harness would have
 * logged). `startStep`: the step its PLAN → CALL_MODEL is logged at (0 for the run's root agent).
 * Nothing follows DONE or FAILED: a turn that answered ends the agent, whatever came after it.
 */
export function deriveTransitions(trajectory: TrajectoryStep[], termination: TerminationReason, startStep = 0): Transition[] {
  const transitions: Transition[] = [{ step: startStep, from: 'PLAN', to: 'CALL_MODEL', reason: 'start' }];
  const turns = trajectory.filter((s): s is ModelTurn => s.kind === 'model_turn');
  const toolsPerStep = new Map<number, number>();
  for (const s of trajectory) if (s.kind === 'tool_call') toolsPerStep.set(s.step, (toolsPerStep.get(s.step) ?? 0) + 1);
  let state = 'CALL_MODEL' as Transition['from'];
  for (const [i, turn] of turns.entries()) {
    const tools = toolsPerStep.get(turn.step) ?? 0;
    if (tools === 0 && turn.toolCalls.length === 0) {
      if (termination === 'COMPLETED') transitions.push({ step: turn.step, from: 'CALL_MODEL', to: 'DONE', reason: `stop_reason:${turn.stopReason}` });
      state = 'DONE';
      break;
    }
    transitions.push({ step: turn.step, from: 'CALL_MODEL', to: 'EXECUTE_TOOLS', reason: `${turn.toolCalls.length || tools} tool call(s)` });
    transitions.push({ step: turn.step, from: 'EXECUTE_TOOLS', to: 'OBSERVE', reason: 'tool results appended' });
    state = 'OBSERVE';
    if (i < turns.length - 1 || termination === 'COMPLETED') {
      transitions.push({ step: turn.step, from: 'OBSERVE', to: 'CALL_MODEL', reason: 'observe → call model' });
      state = 'CALL_MODEL';
    }
  }
  if (termination !== 'COMPLETED' && state !== 'DONE') {
    const step = turns.at(-1)?.step ?? startStep;
    transitions.push({ step, from: state, to: 'FAILED', reason: `imported:${termination}` });
  }
  return transitions;
}

export function terminationOf(root: SpanRecord, trajectory: TrajectoryStep[]): TerminationReason {
  const own = str(root.attributes[STOCKROOM.terminationReason]);
  if (own && (TERMINATION_REASONS as readonly string[]).includes(own)) return own as TerminationReason;
  const errorType = str(root.attributes[ATTR_ERROR_TYPE]);
  if (errorType && (TERMINATION_REASONS as readonly string[]).includes(errorType)) return errorType as TerminationReason;
  if (root.statusCode !== 2) return 'COMPLETED';
  const last = trajectory.filter((s) => s.kind !== 'span').at(-1);
  return last?.kind === 'tool_call' && last.isError ? 'TOOL_ERROR' : 'MODEL_ERROR';
}

/** GenAI parts messages on a span (`gen_ai.input.messages` / `gen_ai.output.messages`), read like a model call's. */
