/**
 * The harness loop: an explicit state machine PLAN → CALL_MODEL → EXECUTE_TOOLS → OBSERVE → … →
 * DONE | FAILED around a Converse-shaped model client (SPEC.md §11.4). Guards return verdicts; a
 * trip is a normal outcome, recorded as a guard event, never an exception. A call that needs a
 * reviewer's approval pauses the run with a checkpoint; `resumeHarness` continues it later, in any
 * process, as if the loop had never stopped.
 */
import { randomUUID } from 'node:crypto';
import { systemClock, type Clock } from '../clock';
import type { HarnessConfig } from '../config';
import type { PayloadWrapper, ToolExecutor, ToolProgress } from '../executor';
import type { ApprovalResolution, CallPolicy } from '../guards/call-policy';
import { maxStepsGuard, tokenBudgetGuard, wallClockGuard } from '../guards/pre-call';
import { repeatedCallGuard } from '../guards/repeated-call';
import type { RunGuard } from '../guards/run-guard';
import type { JsonValue } from '../json';
import type { CostMeter } from '../cost';
import { ModelCallError } from '../errors';
import { usdBudgetGuard } from '../guards/usd-budget';
import type { ModelClient } from '../model/client';
import type { FloatKeys } from '../pyjson';
import { pyLen } from '../text';
import type {
  Message,
  ModelResponse,
  RunResult,
  ToolCallRequest,
  ToolRecord,
  ToolResultBlock,
  ToolSpec,
} from '../types';
import { compactMessages } from './compaction';
import { callSignature, executeCall, type CallEnvironment } from './execute-call';
import { MessageSizer } from './message-size';
import { assistantMessage, stripPrivateKeys, toolResultBlock } from './messages';
import { RunState } from './run-state';

export const MOCK_COST_NOTE = 'mock mode: no model calls were billed';
export const NO_TEXT_ANSWER = '(the model returned no text)';

export interface HarnessOptions {
  config: HarnessConfig;
  executor: ToolExecutor;
  /** A model client for this run (the fake model is created fresh per run, bound to the case). */
  model: ModelClient;
  systemPrompt: string;
  /** Keys whose numbers are floats in the dataset, for exact token counts. */
  floatKeys?: FloatKeys;
  clock?: Clock;
  runGuards?: readonly RunGuard[];
  payloadWrappers?: readonly PayloadWrapper[];
  /** Governance: decides allow / deny / approval_required for each proposed call. */
  policy?: CallPolicy;
  runId?: string;
  /** Supplies an idempotency key for a call (governance); none by default. */
  operationKey?: (call: ToolCallRequest) => string | undefined;
  /** Cancels the run: the model call in flight is aborted and the run ends as MODEL_ERROR (cancelled). */
  signal?: AbortSignal;
  /** Prices the run's usage (live models); without one, mock runs cost 0 and live runs are not estimated. */
  costMeter?: CostMeter;
  /**
   * Told after every step that leaves the run going (the model turn and its tool calls done), with the
   * run so far (`status: 'running'`): the seam live progress is stored through. The loop awaits it, so
   * a store that keeps up sees every step in order; a failure there is the caller's and never stops the run.
   */
  onStep?: (soFar: RunResult) => void | Promise<void>;
  /** Told of a tool call's progress while it runs (live progress in replay); never awaited. */
  onToolProgress?: (progress: ToolProgress & { step: number; toolUseId: string; name: string }) => void;
}

export interface RunInput {
  query: string;
  caseId?: string | null;
}

/** What one run needs besides its state: resolved once, shared by every iteration. */
interface Driver {
  options: HarnessOptions;
  input: RunInput;
  clock: Clock;
  started: number;
  specList: ToolSpec[];
  specs: Map<string, ToolSpec>;
  sizer: MessageSizer;
  systemChars: number;
}

type StepOutcome = { kind: 'done' } | { kind: 'stopped' } | { kind: 'paused' };

async function driver(input: RunInput, options: HarnessOptions, elapsedMs = 0): Promise<Driver> {
  const clock = options.clock ?? systemClock;
  const specList: ToolSpec[] = await options.executor.listSpecs();
  return {
    options,
    input,
    clock,
    started: clock.now() - elapsedMs,
    specList,
    specs: new Map(specList.map((s) => [s.name, s])),
    sizer: new MessageSizer(options.floatKeys),
    systemChars: pyLen(options.systemPrompt),
  };
}

/**
 * The tool list as the executor has it now: a server that announced a change mid-run
 * (notifications/tools/list_changed) is asked again, so the model sees new tools and changed
 * schemas, validation uses them, and a call policy compares them with its pin (a pinned tool whose
 * schema changed is refused as drift). Executors answer from their cache when nothing changed.
 */
async function refreshSpecs(d: Driver): Promise<void> {
  let specList: ToolSpec[];
  try {
    specList = await d.options.executor.listSpecs();
  } catch {
    return; // a server that cannot list now says so on the next call; the run keeps the list it had
  }
  if (JSON.stringify(specList) === JSON.stringify(d.specList)) return;
  d.specList = specList;
  d.specs = new Map(specList.map((s) => [s.name, s]));
}

function contextEstimate(d: Driver, run: RunState): number {
  return Math.max(1, Math.floor((d.systemChars + d.sizer.messagesChars(run.messages) + d.sizer.specsChars(d.specList)) / 4));
}

/**
 * Runs the calls of one step from `calls[0]` on. A resolution applies to the first call (the one a
 * paused run was waiting on). Returns `paused` with the checkpoint set, or `stopped` on a halt.
 */
async function executeCalls(
  d: Driver,
  run: RunState,
  calls: readonly ToolCallRequest[],
  blocks: ToolResultBlock[],
  stepRecords: ToolRecord[],
  resolution: (ApprovalResolution & { rule: string; policyVersion: string }) | null,
  stateVersion: number,
): Promise<StepOutcome> {
  const { config } = d.options;
  for (const [index, call] of calls.entries()) {
    const resolving = index === 0 && resolution !== null;
    if (!resolving && !config.weaknesses.includes('naive_retry')) {
      const repeat = repeatedCallGuard(call.name, callSignature(call.name, call.arguments), run.records, config.repeatCallWindow);
      if (repeat.stop) {
        run.stopWith(repeat);
        return { kind: 'stopped' };
      }
    }
    const env: CallEnvironment = {
      config,
      executor: d.options.executor,
      specs: d.specs,
      runGuards: d.options.runGuards ?? [],
      payloadWrappers: d.options.payloadWrappers ?? [],
      query: d.input.query,
      records: run.records,
      now: () => d.clock.now(),
      operationKey: d.options.operationKey,
      policy: d.options.policy,
      resolution: resolving ? resolution : undefined,
      // A call still running at the run's wall-clock deadline is cancelled, not waited for.
      deadlineAt: d.started + config.wallClockTimeoutS * 1000,
      signal: d.options.signal,
      onToolProgress: d.options.onToolProgress,
    };
    let outcome;
    try {
      outcome = await executeCall(env, call, run.step);
    } catch (err) {
      // The executor itself failed (a transport down, not a tool refusal): nothing more can run.
      run.stopWith({ stop: true, guard: 'tool', reason: 'TOOL_ERROR', detail: err instanceof Error ? err.message : String(err) });
      return { kind: 'stopped' };
    }
    if (outcome.awaitApproval) {
      const { rule, policyVersion, message } = outcome.awaitApproval;
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
        awaiting: { toolUseId: call.toolUseId, name: call.name, arguments: call.arguments, rule, policyVersion, message },
      };
      run.move('EXECUTE_TOOLS', `awaiting approval: ${call.name} (${rule})`);
      return { kind: 'paused' };
    }
    const { record } = outcome;
    run.records.push(record);
    run.trajectory.push(record);
    stepRecords.push(record);
    if (record.validationError !== null) run.invalidCount += 1;
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

/** One model turn and its tool calls. */
async function iterate(d: Driver, run: RunState, stateVersion: number): Promise<StepOutcome> {
  const { config, model, systemPrompt, floatKeys } = d.options;
  run.step += 1;
  await refreshSpecs(d);

  const early = wallClockGuard(d.clock.now() - d.started, config.wallClockTimeoutS);
  const preVerdict = early.stop ? early : maxStepsGuard(run.usage.modelCalls, config.maxSteps);
  if (preVerdict.stop) {
    run.stopWith(preVerdict);
    return { kind: 'stopped' };
  }

  let ctx = contextEstimate(d, run);
  if (ctx > config.compactionTokenThreshold) {
    const compacted = compactMessages(run.messages, config.compactionKeepTurns, floatKeys);
    if (compacted.summarised > 0) {
      run.messages = compacted.messages;
      const after = contextEstimate(d, run);
      run.trajectory.push({ kind: 'compaction', step: run.step, tokensBefore: ctx, tokensAfter: after, resultsSummarised: compacted.summarised });
      ctx = after;
    }
  }
  const budget = tokenBudgetGuard(run.usage.inputTokens + run.usage.outputTokens, ctx, config.maxTokens, config.tokenBudget);
  if (budget.stop) {
    run.stopWith(budget);
    return { kind: 'stopped' };
  }
  const meter = d.options.costMeter;
  if (config.usdBudget !== null && meter) {
    const spent = meter.usd(usageTokens(run)) ?? 0;
    const next = meter.usd({ inputTokens: ctx, outputTokens: config.maxTokens, cachedTokens: 0 }) ?? 0;
    const verdict = usdBudgetGuard(spent, next, config.usdBudget);
    if (verdict.stop) {
      run.stopWith(verdict);
      return { kind: 'stopped' };
    }
  }

  const visible = stripPrivateKeys(run.messages);
  run.modelInputs.push({ step: run.step, messages: visible });
  let response: ModelResponse;
  try {
    if (d.options.signal?.aborted) throw new ModelCallError('cancelled', 'the run was cancelled');
    response = await model.converse({
      system: systemPrompt,
      messages: visible,
      tools: d.specList,
      maxTokens: config.maxTokens,
      signal: d.options.signal,
      onRetry: (r) => run.trajectory.push({ kind: 'model_retry', step: run.step, ...r }),
    });
  } catch (err) {
    const kind = (err as { kind?: string }).kind ?? (err instanceof Error ? err.name : 'error');
    const message = err instanceof Error ? err.message : String(err);
    if (kind === 'diverged') {
      // Replaying a recorded run: the harness now asks something the recording never answered.
      run.stopWith({ stop: true, guard: 'replay', reason: 'DIVERGED', detail: message });
      return { kind: 'stopped' };
    }
    run.trajectory.push({ kind: 'guard', step: run.step, guard: 'model', reason: 'MODEL_ERROR', detail: `${kind}: ${message}`, errorKind: kind });
    run.termination = 'MODEL_ERROR';
    run.finalAnswer = `The model call failed (${kind}): ${message}`;
    run.move('FAILED', 'model_error');
    return { kind: 'stopped' };
  }
  run.addResponse(response);
  if (response.diverged) {
    run.trajectory.push({ kind: 'guard', step: run.step, guard: 'replay', reason: 'DIVERGED', detail: `continued live: ${response.diverged.detail}` });
  }
  if (response.exchange) {
    const { exchange: _e, diverged: _d, raw, ...recorded } = response;
    run.exchanges.push({
      callIndex: run.modelInputs.length - 1,
      step: run.step,
      requestDigest: response.exchange.requestDigest,
      response: recorded as unknown as JsonValue,
      ...(raw !== undefined ? { raw } : {}),
    });
  }
  run.trajectory.push({
    kind: 'model_turn',
    step: run.step,
    text: response.text,
    toolCalls: response.toolCalls.map((c) => ({ toolUseId: c.toolUseId, name: c.name, arguments: c.arguments })),
    stopReason: response.stopReason,
    inputTokens: response.inputTokens,
    outputTokens: response.outputTokens,
    latencyMs: response.latencyMs,
    contextTokensEstimate: ctx,
    ...(response.provider !== undefined ? { provider: response.provider } : {}),
    ...(response.finishReason !== undefined ? { finishReason: response.finishReason } : {}),
    ...(response.cachedTokens !== undefined ? { cachedTokens: response.cachedTokens } : {}),
  });
  const assistant = assistantMessage(response.text, response.toolCalls);
  if (assistant) run.messages = [...run.messages, assistant];

  if (response.toolCalls.length === 0) {
    run.finalAnswer = (response.text ?? '').trim() || NO_TEXT_ANSWER;
    run.move('DONE', `stop_reason:${response.stopReason}`);
    return { kind: 'stopped' };
  }
  run.move('EXECUTE_TOOLS', `${response.toolCalls.length} tool call(s)`);
  return executeCalls(d, run, response.toolCalls, [], [], null, stateVersion);
}

async function loop(d: Driver, run: RunState, stateVersion: number, progress: Progress | null): Promise<void> {
  while (run.state === 'CALL_MODEL') {
    const outcome = await iterate(d, run, stateVersion);
    if (outcome.kind !== 'done') return;
    if (progress) await reportStep(d, run, progress);
  }
}

/** Where a run's progress goes: its id and start time, fixed for the whole run. */
interface Progress {
  runId: string;
  startedAt: string;
}

async function reportStep(d: Driver, run: RunState, progress: Progress): Promise<void> {
  try {
    // A copy: the run goes on changing its arrays while the observer stores this snapshot.
    await d.options.onStep?.(structuredClone({ ...result(d, run, progress.runId, progress.startedAt), status: 'running' }));
  } catch {
    // Progress is best effort: the finished run is stored whole either way.
  }
}

function usageTokens(run: RunState) {
  return { inputTokens: run.usage.inputTokens, outputTokens: run.usage.outputTokens, cachedTokens: run.usage.cachedTokens ?? 0 };
}

function costOf(d: Driver, run: RunState): RunResult['costEstimate'] {
  const meter = d.options.costMeter;
  if (!meter) return d.options.config.mode === 'mock' ? { usd: 0, note: MOCK_COST_NOTE } : { usd: 0, note: 'cost not estimated', known: false };
  const usd = meter.usd(usageTokens(run));
  return usd === null ? { usd: 0, note: meter.note, known: false } : { usd, note: meter.note };
}

function result(d: Driver, run: RunState, runId: string, startedAt: string): RunResult {
  const { config, model, systemPrompt } = d.options;
  const paused = run.checkpoint !== null;
  return {
    runId,
    caseId: d.input.caseId ?? null,
    query: d.input.query,
    finalAnswer: run.finalAnswer,
    terminationReason: run.termination,
    trajectory: run.trajectory,
    transitions: run.transitions,
    usage: run.usage,
    costEstimate: costOf(d, run),
    steps: run.step,
    startedAt,
    durationMs: Math.round((d.clock.now() - d.started) * 1000) / 1000,
    mode: config.mode,
    modelId: model.modelId,
    weaknesses: [...config.weaknesses].sort(),
    systemPrompt,
    toolSpecs: d.specList,
    modelInputs: run.modelInputs as unknown as RunResult['modelInputs'],
    ...(run.exchanges.length > 0 ? { exchanges: run.exchanges } : {}),
    status: paused ? 'paused' : 'finished',
    checkpoint: run.checkpoint,
  };
}

/** Runs the agent loop on one query from a clean executor. */
export async function runHarness(input: RunInput, options: HarnessOptions): Promise<RunResult> {
  await options.executor.reset();
  const d = await driver(input, options);
  const startedAt = d.clock.isoNow();
  const run = new RunState(input.query);
  run.move('CALL_MODEL', 'start');
  const runId = options.runId ?? randomUUID();
  const progress = options.onStep ? { runId, startedAt } : null;
  // Reported once before the first model call too, so a store holds the run from its start.
  if (progress) await reportStep(d, run, progress);
  await loop(d, run, 0, progress);
  return result(d, run, runId, startedAt);
}

/**
 * Continues a paused run from its checkpoint with a reviewer's resolution of the awaited call
 * (already re-validated by the caller). The executor is not reset: the run is the same run.
 */
export async function resumeHarness(paused: RunResult, resolution: ApprovalResolution, options: HarnessOptions): Promise<RunResult> {
  const cp = paused.checkpoint;
  if (paused.status !== 'paused' || cp === null) throw new Error(`run ${paused.runId} is not paused`);
  const d = await driver({ query: paused.query, caseId: paused.caseId }, options, cp.elapsedMs);
  const run = new RunState(paused.query);
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
  const stepRecords = run.records.slice(run.records.length - cp.stepRecords);
  run.move('EXECUTE_TOOLS', `approval ${resolution.outcome}: ${cp.awaiting.name}`);
  const outcome = await executeCalls(
    d,
    run,
    cp.pendingCalls,
    [...(cp.stepBlocks as unknown as ToolResultBlock[])],
    stepRecords,
    { ...resolution, rule: cp.awaiting.rule, policyVersion: cp.awaiting.policyVersion },
    cp.stateVersion,
  );
  if (outcome.kind === 'done') await loop(d, run, cp.stateVersion, options.onStep ? { runId: paused.runId, startedAt: paused.startedAt } : null);
  return result(d, run, paused.runId, paused.startedAt);
}
