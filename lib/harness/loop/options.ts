/**
 * What a run of the loop is given (every seam is handed in: model, tools, clock, guards, policy,
 * cost meter, progress observer) and the per-run context resolved once from it.
 */
import { systemClock, type Clock } from '../clock';
import { ConfigError } from '../errors';
import type { HarnessConfig } from '../config';
import type { CostMeter } from '../cost';
import type { PayloadWrapper, ToolExecutor, ToolProgress } from '../executor';
import type { CallPolicy } from '../guards/call-policy';
import type { RunGuard } from '../guards/run-guard';
import type { ModelClient } from '../model/client';
import type { TokenEstimator } from '../token-estimator';
import type { FloatKeys } from '../pyjson';
import { pyLen } from '../text';
import type { CallTime, Checkpoint, RunResult, ToolCallRequest, ToolSpec } from '../types';
import { runDeadline, type RunDeadline } from './deadline';
import { MessageSizer } from './message-size';
import { resumedTimeline, type Timeline } from './timing';
import type { RunState } from './run-state';

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
  /**
   * Cancels the run: whatever it waits on (model call, retry wait, tool call) is aborted and the run
   * ends as MODEL_ERROR (cancelled). The wall-clock limit aborts the same way and ends it TIMEOUT.
   */
  signal?: AbortSignal;
  /** Prices the run's usage (live models); without one, mock runs cost 0 and live runs are not estimated. */
  costMeter?: CostMeter;
  /**
   * Told after every step that leaves the run going (the model turn and its tool calls done), with the
   * run so far (`status: 'running'`): the seam live progress is stored through. The loop awaits it, so
   * a store that keeps up sees every step in order; a failure there is the caller's and never stops the run.
   */
  onStep?: (soFar: RunResult) => void | Promise<void>;
  /**
   * The judge of the guardrails' LLM guard (fake or live, Converse-shaped like the agent's model).
   * Required when the configuration has an `llm_guard`: the run is refused before it starts without one.
   */
  guardModel?: ModelClient;
  /**
   * Counts tokens locally for a call whose answer reported no usage, so the budgets still see it
   * (marked estimated, never stored as reported). Without one, such a call stops the run
   * USAGE_UNKNOWN before the next call: a budget that cannot be kept fails closed.
   */
  tokenEstimator?: TokenEstimator;
  /**
   * Told, while a streamed model call's answer arrives, the answer text so far for the step being
   * produced (accumulated; it starts again when the call retries); never awaited. Only streamed calls
   * tell it (live models with streaming on).
   */
  onModelText?: (partial: { step: number; text: string }) => void;
  /** Told of a tool call's progress while it runs (live progress in replay); never awaited. */
  onToolProgress?: (progress: ToolProgress & { step: number; toolUseId: string; name: string }) => void;
  /**
   * Stop the run on `repeatCallWindow` identical calls in a row (REPEATED_CALL). On unless false: a
   * caller that wants a run to loop (a course setting) says so here; the loop never asks why.
   */
  repeatedCallGuard?: boolean;
  /** Remove instruction-like lines from tool output before the model reads it. On unless false. */
  quarantine?: boolean;
}

export interface RunInput {
  query: string;
  caseId?: string | null;
}

/** What one run needs besides its state: resolved once, shared by every iteration. */
export interface Driver {
  options: HarnessOptions;
  input: RunInput;
  clock: Clock;
  /** The clock's reading when the run started (`elapsedMs` earlier for a resumed run). */
  started: number;
  /** The run's signal (the caller's cancel or the wall-clock limit) and whether the limit passed. */
  deadline: RunDeadline;
  /** What recorded times count from (timing.ts). */
  timeline: Timeline;
  /** A resumed run: how long the awaited call waited for its reviewer (null: not resumed, or unknown). */
  approvalWait: CallTime | null;
  specList: ToolSpec[];
  specs: Map<string, ToolSpec>;
  sizer: MessageSizer;
  systemChars: number;
}

export async function driver(input: RunInput, options: HarnessOptions, paused: Checkpoint | null = null): Promise<Driver> {
  if (options.config.guardrails?.llm_guard && !options.guardModel) {
    throw new ConfigError('guardrails.llm_guard', 'guardrails.llm_guard: no judge model was configured for the LLM guard');
  }
  const clock = options.clock ?? systemClock;
  const specList: ToolSpec[] = await options.executor.listSpecs();
  const started = clock.now() - (paused?.elapsedMs ?? 0);
  const resumed = paused ? resumedTimeline(clock, paused) : null;
  return {
    options,
    input,
    clock,
    started,
    deadline: runDeadline(clock, started, options.config.wallClockTimeoutS, options.signal),
    timeline: resumed?.timeline ?? { clock, base: started },
    approvalWait: resumed?.approvalWait ?? null,
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
export async function refreshSpecs(d: Driver): Promise<void> {
  let specList: ToolSpec[];
  try {
    specList = await d.options.executor.listSpecs();
  } catch {
    return; // a server that cannot list now says so on the next call; the run keeps the list it had
  }
  // The same array (an executor answering from its cache, the local one's frozen list) has not changed:
  // comparing it as JSON before every step cost a 1,525-run matrix a quarter of a second.
  if (specList === d.specList || JSON.stringify(specList) === JSON.stringify(d.specList)) return;
  d.specList = specList;
  d.specs = new Map(specList.map((s) => [s.name, s]));
}

/** The next model call's input tokens, estimated (chars / 4 of system prompt, messages and tool specs). */
export function contextEstimate(d: Driver, run: RunState): number {
  return Math.max(1, Math.floor((d.systemChars + d.sizer.messagesChars(run.messages) + d.sizer.specsChars(d.specList)) / 4));
}
