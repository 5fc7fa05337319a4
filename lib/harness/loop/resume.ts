/**
 * Continuing a paused run: its state is rebuilt from the checkpoint (messages, the step's result
 * blocks and records so far, counters, elapsed time) and the paused step goes on with the
 * reviewer's resolution of the awaited call, as if the loop had never stopped.
 */
import type { ApprovalResolution } from '../guards/call-policy';
import type { Checkpoint, Message, RunResult, ToolRecord, ToolResultBlock } from '../types';
import type { BoundResolution, StepSoFar } from './execute-calls';
import { RunState } from './run-state';
import type { Instant } from './timing';

/** The run state a paused run had, ready to continue its step. */
export function restoreRun(paused: RunResult, cp: Checkpoint, now?: () => Instant): { run: RunState; step: StepSoFar } {
  const run = new RunState(paused.query, now);
  run.state = 'EXECUTE_TOOLS';
  run.step = cp.step;
  run.messages = cp.messages as unknown as Message[];
  run.trajectory = [...paused.trajectory];
  run.records = run.trajectory.filter((s): s is ToolRecord => s.kind === 'tool_call');
  run.transitions = [...paused.transitions];
  run.usage = { ...paused.usage, perCall: [...paused.usage.perCall] };
  run.modelInputs = [...(paused.modelInputs as unknown as RunState['modelInputs'])];
  run.exchanges = [...(paused.exchanges ?? [])];
  run.invalidCount = cp.invalidCount;
  run.guardrailRetries = run.trajectory.filter((s) => s.kind === 'guardrail' && s.action === 'retry').length;
  const step = { blocks: [...(cp.stepBlocks as unknown as ToolResultBlock[])], records: run.records.slice(run.records.length - cp.stepRecords) };
  return { run, step };
}

/** The resolution bound to what the approval was for (its rule and policy version). */
export function boundResolution(resolution: ApprovalResolution, cp: Checkpoint): BoundResolution {
  return { ...resolution, rule: cp.awaiting.rule, policyVersion: cp.awaiting.policyVersion };
}
