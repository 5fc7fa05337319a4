/**
 * The harness loop: an explicit state machine PLAN → CALL_MODEL → EXECUTE_TOOLS → OBSERVE → … →
 * DONE | FAILED around a Converse-shaped model client (SPEC.md §11.4). Guards return verdicts; a
 * trip is a normal outcome, recorded as a guard event, never an exception.
 */
import { randomUUID } from 'node:crypto';
import { systemClock, type Clock } from '../clock';
import type { HarnessConfig } from '../config';
import type { PayloadWrapper, ToolExecutor } from '../executor';
import { maxStepsGuard, tokenBudgetGuard, wallClockGuard } from '../guards/pre-call';
import { repeatedCallGuard } from '../guards/repeated-call';
import type { RunGuard } from '../guards/run-guard';
import type { GuardVerdict } from '../guards/verdict';
import type { ModelClient } from '../model/client';
import type { FloatKeys } from '../pyjson';
import { pyLen } from '../text';
import type {
  HarnessState,
  Message,
  ModelResponse,
  RunResult,
  TerminationReason,
  ToolCallRequest,
  ToolRecord,
  ToolResultBlock,
  ToolSpec,
  TrajectoryStep,
  Transition,
  Usage,
} from '../types';
import { compactMessages } from './compaction';
import { callSignature, executeCall } from './execute-call';
import { MessageSizer } from './message-size';
import { assistantMessage, stripPrivateKeys, toolResultBlock, userMessage } from './messages';

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
  runId?: string;
  /** Supplies an idempotency key for a call (governance); none by default. */
  operationKey?: (call: ToolCallRequest) => string | undefined;
}

export interface RunInput {
  query: string;
  caseId?: string | null;
}

/** Mutable bookkeeping of one run; everything in it ends up in the RunResult. */
class RunState {
  state: HarnessState = 'PLAN';
  step = 0;
  messages: Message[];
  readonly trajectory: TrajectoryStep[] = [];
  readonly records: ToolRecord[] = [];
  readonly transitions: Transition[] = [];
  readonly usage: Usage = { modelCalls: 0, inputTokens: 0, outputTokens: 0, totalTokens: 0, perCall: [] };
  readonly modelInputs: { step: number; messages: Message[] }[] = [];
  termination: TerminationReason = 'COMPLETED';
  finalAnswer = '';
  invalidCount = 0;

  constructor(query: string) {
    this.messages = [userMessage(query)];
  }

  move(to: HarnessState, reason: string): void {
    this.transitions.push({ step: this.step, from: this.state, to, reason });
    this.state = to;
  }

  addResponse(r: ModelResponse): void {
    this.usage.modelCalls += 1;
    this.usage.inputTokens += r.inputTokens;
    this.usage.outputTokens += r.outputTokens;
    this.usage.totalTokens = this.usage.inputTokens + this.usage.outputTokens;
    this.usage.perCall.push({ inputTokens: r.inputTokens, outputTokens: r.outputTokens });
  }

  /** A guard verdict that stops the run: event, termination reason, final answer, FAILED. */
  stopWith(v: Extract<GuardVerdict, { stop: true }>, transitionReason = `guard:${v.guard}`): void {
    this.trajectory.push({ kind: 'guard', step: this.step, guard: v.guard, reason: v.reason, detail: v.detail });
    this.termination = v.reason;
    this.finalAnswer = `I had to stop before finishing (${v.reason}): ${v.detail}.`;
    this.move('FAILED', transitionReason);
  }
}

export async function runHarness(input: RunInput, options: HarnessOptions): Promise<RunResult> {
  const { config, executor, model, systemPrompt, floatKeys } = options;
  const clock = options.clock ?? systemClock;
  const started = clock.now();
  const startedAt = clock.isoNow();
  const run = new RunState(input.query);

  await executor.reset();
  const specList: ToolSpec[] = await executor.listSpecs();
  const specs = new Map(specList.map((s) => [s.name, s]));
  const sizer = new MessageSizer(floatKeys);
  const systemChars = pyLen(systemPrompt);
  const contextEstimate = () =>
    Math.max(1, Math.floor((systemChars + sizer.messagesChars(run.messages) + sizer.specsChars(specList)) / 4));

  run.move('CALL_MODEL', 'start');
  while (run.state === 'CALL_MODEL') {
    run.step += 1;

    const early = wallClockGuard(clock.now() - started, config.wallClockTimeoutS);
    const preVerdict = early.stop ? early : maxStepsGuard(run.usage.modelCalls, config.maxSteps);
    if (preVerdict.stop) {
      run.stopWith(preVerdict);
      break;
    }

    let ctx = contextEstimate();
    if (ctx > config.compactionTokenThreshold) {
      const compacted = compactMessages(run.messages, config.compactionKeepTurns, floatKeys);
      if (compacted.summarised > 0) {
        run.messages = compacted.messages;
        const after = contextEstimate();
        run.trajectory.push({ kind: 'compaction', step: run.step, tokensBefore: ctx, tokensAfter: after, resultsSummarised: compacted.summarised });
        ctx = after;
      }
    }
    const budget = tokenBudgetGuard(run.usage.inputTokens + run.usage.outputTokens, ctx, config.maxTokens, config.tokenBudget);
    if (budget.stop) {
      run.stopWith(budget);
      break;
    }

    const visible = stripPrivateKeys(run.messages);
    run.modelInputs.push({ step: run.step, messages: visible });
    let response: ModelResponse;
    try {
      response = await model.converse({ system: systemPrompt, messages: visible, tools: specList, maxTokens: config.maxTokens });
    } catch (err) {
      const kind = (err as { kind?: string }).kind ?? (err instanceof Error ? err.name : 'error');
      const message = err instanceof Error ? err.message : String(err);
      run.trajectory.push({ kind: 'guard', step: run.step, guard: 'model', reason: 'MODEL_ERROR', detail: message });
      run.termination = 'MODEL_ERROR';
      run.finalAnswer = `The model call failed (${kind}): ${message}`;
      run.move('FAILED', 'model_error');
      break;
    }
    run.addResponse(response);
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
    });
    const assistant = assistantMessage(response.text, response.toolCalls);
    if (assistant) run.messages = [...run.messages, assistant];

    if (response.toolCalls.length === 0) {
      const text = (response.text ?? '').trim();
      run.finalAnswer = text || NO_TEXT_ANSWER;
      run.move('DONE', `stop_reason:${response.stopReason}`);
      break;
    }

    run.move('EXECUTE_TOOLS', `${response.toolCalls.length} tool call(s)`);
    const blocks: ToolResultBlock[] = [];
    const stepRecords: ToolRecord[] = [];
    let halted: Extract<GuardVerdict, { stop: true }> | null = null;
    for (const call of response.toolCalls) {
      if (!config.weaknesses.includes('naive_retry')) {
        const repeat = repeatedCallGuard(call.name, callSignature(call.name, call.arguments), run.records, config.repeatCallWindow);
        if (repeat.stop) {
          halted = repeat;
          break;
        }
      }
      let outcome;
      try {
        outcome = await executeCall(
          {
            config,
            executor,
            specs,
            runGuards: options.runGuards ?? [],
            payloadWrappers: options.payloadWrappers ?? [],
            query: input.query,
            records: run.records,
            now: () => clock.now(),
            operationKey: options.operationKey,
          },
          call,
          run.step,
        );
      } catch (err) {
        // The executor itself failed (a transport down, not a tool refusal): nothing more can run.
        halted = { stop: true, guard: 'tool', reason: 'TOOL_ERROR', detail: err instanceof Error ? err.message : String(err) };
        break;
      }
      const { record } = outcome;
      run.records.push(record);
      run.trajectory.push(record);
      stepRecords.push(record);
      if (record.validationError !== null) run.invalidCount += 1;
      if (outcome.halt) {
        halted = { stop: true, ...outcome.halt };
        break;
      }
      blocks.push(toolResultBlock(record.toolUseId, record.resultContent, record.isError || record.validationError !== null));
    }
    if (halted) {
      run.stopWith(halted);
      break;
    }

    run.messages = [...run.messages, { role: 'user', content: blocks }];
    run.move('OBSERVE', 'tool results appended');
    if (stepRecords.length > 0 && stepRecords.every((r) => r.validationError !== null) && run.invalidCount >= config.maxSteps) {
      run.stopWith({ stop: true, guard: 'invalid_calls', reason: 'INVALID_TOOL_CALLS', detail: 'the model kept sending invalid tool arguments' });
      break;
    }
    run.move('CALL_MODEL', 'observe → call model');
  }

  return {
    runId: options.runId ?? randomUUID(),
    caseId: input.caseId ?? null,
    query: input.query,
    finalAnswer: run.finalAnswer,
    terminationReason: run.termination,
    trajectory: run.trajectory,
    transitions: run.transitions,
    usage: run.usage,
    costEstimate: config.mode === 'mock' ? { usd: 0, note: MOCK_COST_NOTE } : { usd: 0, note: 'cost not estimated' },
    steps: run.step,
    startedAt,
    durationMs: Math.round((clock.now() - started) * 1000) / 1000,
    mode: config.mode,
    modelId: model.modelId,
    weaknesses: [...config.weaknesses].sort(),
    systemPrompt,
    toolSpecs: specList,
    modelInputs: run.modelInputs,
  };
}
