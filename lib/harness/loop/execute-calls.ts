/**
 * The EXECUTE_TOOLS state's work: the calls of one model turn in order, each through the repeated-
 * call guard (off under naive_retry), validation, run guards, the call policy and the executor
 * (execute-call.ts). A call that needs approval pauses the run with a checkpoint from which
 * resume.ts continues; a halt or a failed executor stops it; otherwise the results are appended
 * (OBSERVE) and the loop goes back to the model, unless only invalid calls keep coming.
 */
import type { ApprovalResolution } from '../guards/call-policy';
import { repeatedCallGuard } from '../guards/repeated-call';
import type { JsonValue } from '../json';
import type { ToolCallRequest, ToolRecord, ToolResultBlock, ToolSessionEvent } from '../types';
import { callSignature, executeCall, type CallEnvironment } from './execute-call';
import { toolResultBlock } from './messages';
import type { Driver } from './options';
import type { RunState } from './run-state';
import { callTime, instant } from './timing';

/** How a step ended: on to the next model call, stopped (reason on the run), or paused for approval. */
export type StepOutcome = { kind: 'done' } | { kind: 'stopped' } | { kind: 'paused' };

/** A reviewer's resolution of the call a paused run waits on, with what the approval was bound to. */
export type BoundResolution = ApprovalResolution & { rule: string; policyVersion: string };

/** Where a step's calls stand: the result blocks and records so far (a resumed step brings its own). */
export interface StepSoFar {
  blocks: ToolResultBlock[];
  records: ToolRecord[];
}

function callEnvironment(d: Driver, run: RunState, resolution: BoundResolution | undefined): CallEnvironment {
  return {
    config: d.options.config,
    executor: d.options.executor,
    specs: d.specs,
    runGuards: d.options.runGuards ?? [],
    payloadWrappers: d.options.payloadWrappers ?? [],
    query: d.input.query,
    records: run.records,
    now: () => d.clock.now(),
    operationKey: d.options.operationKey,
    policy: d.options.policy,
    resolution,
    // A call still running at the run's wall-clock deadline is cancelled, not waited for.
    deadlineAt: d.started + d.options.config.wallClockTimeoutS * 1000,
    signal: d.deadline.signal,
    onToolProgress: d.options.onToolProgress,
    guardrails: d.options.config.guardrails,
    quarantine: d.options.quarantine !== false,
  };
}

/**
 * Runs the calls of one step from `calls[0]` on. A resolution applies to the first call (the one a
 * paused run was waiting on).
 */
export async function executeCalls(
  d: Driver,
  run: RunState,
  calls: readonly ToolCallRequest[],
  step: StepSoFar,
  resolution: BoundResolution | null,
  stateVersion: number,
): Promise<StepOutcome> {
  const { config } = d.options;
  const { blocks, records: stepRecords } = step;
  for (const [index, call] of calls.entries()) {
    const resolving = index === 0 && resolution !== null;
    if (!resolving && d.options.repeatedCallGuard !== false) {
      const repeat = repeatedCallGuard(call.name, callSignature(call.name, call.arguments), run.records, config.repeatCallWindow);
      if (repeat.stop) {
        run.stopWith(repeat);
        return { kind: 'stopped' };
      }
    }
    let outcome;
    const started = instant(d.timeline);
    // New sessions the executor opened with the tool server for this call: recorded before its record.
    const sessions: ToolSessionEvent[] = [];
    const env: CallEnvironment = {
      ...callEnvironment(d, run, resolving ? resolution : undefined),
      onSessionRenewed: (r) => sessions.push({ kind: 'tool_session', step: run.step, toolUseId: call.toolUseId, name: call.name, ...r }),
    };
    try {
      outcome = await executeCall(env, call, run.step);
    } catch (err) {
      run.trajectory.push(...sessions);
      if (d.deadline.passed()) {
        run.stopWith(d.deadline.verdict());
        return { kind: 'stopped' };
      }
      // The executor itself failed (a transport down, not a tool refusal): nothing more can run.
      run.stopWith({ stop: true, guard: 'tool', reason: 'TOOL_ERROR', detail: err instanceof Error ? err.message : String(err) });
      return { kind: 'stopped' };
    }
    if (outcome.awaitApproval) {
      const { rule, policyVersion, message } = outcome.awaitApproval;
      const pausedAt = instant(d.timeline);
      run.checkpoint = {
        version: 1,
        stateVersion: stateVersion + 1,
        step: run.step,
        messages: run.messages as unknown as JsonValue[],
        pendingCalls: calls.slice(index).map((c) => ({ toolUseId: c.toolUseId, name: c.name, arguments: c.arguments })),
        stepBlocks: blocks as unknown as JsonValue[],
        stepRecords: stepRecords.length,
        invalidCount: run.invalidCount,
        elapsedMs: d.clock.now() - d.started,
        pausedAt: pausedAt.at,
        offsetMs: pausedAt.ms,
        awaiting: { toolUseId: call.toolUseId, name: call.name, arguments: call.arguments, rule, policyVersion, message },
      };
      run.move('EXECUTE_TOOLS', `awaiting approval: ${call.name} (${rule})`);
      return { kind: 'paused' };
    }
    const record = {
      ...outcome.record,
      time: callTime(started, instant(d.timeline)),
      ...(resolving && d.approvalWait ? { approvalWait: d.approvalWait } : {}),
    };
    run.records.push(record);
    run.trajectory.push(...sessions, record);
    stepRecords.push(record);
    for (const e of outcome.guardrailEvents ?? []) run.trajectory.push(e);
    if (record.validationError !== null) run.invalidCount += 1;
    if (d.deadline.passed()) {
      // The call was cut off at the wall-clock limit: nothing more of this step runs.
      run.stopWith(d.deadline.verdict());
      return { kind: 'stopped' };
    }
    if (outcome.halt) {
      run.stopWith({ stop: true, ...outcome.halt });
      return { kind: 'stopped' };
    }
    blocks.push(toolResultBlock(record.toolUseId, record.resultContent, record.isError || record.validationError !== null));
  }

  run.messages = [...run.messages, { role: 'user', content: blocks }];
  run.move('OBSERVE', 'tool results appended');
  if (stepRecords.length > 0 && stepRecords.every((r) => r.validationError !== null) && run.invalidCount >= config.maxSteps) {
    run.stopWith({ stop: true, guard: 'invalid_calls', reason: 'INVALID_TOOL_CALLS', detail: 'the model kept sending invalid tool arguments' });
    return { kind: 'stopped' };
  }
  run.move('CALL_MODEL', 'observe → call model');
  return { kind: 'done' };
}
