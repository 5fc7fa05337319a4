/**
 * The Stockroom agent: one harness configuration over one dataset and one tool executor. Every
 * run resets the executor and gets a fresh fake model bound to its case id, so nothing carries over
 * between runs (SPEC.md §1).
 */
import type { Clock } from '../harness';
import type { CostMeter } from '../harness';
import type { HarnessConfig } from '../harness';
import type { PayloadWrapper, ToolExecutor } from '../harness';
import { createGroundedWriteGuard } from '../harness';
import type { RunGuard } from '../harness';
import { resumeHarness, runHarness } from '../harness';
import type { HarnessOptions } from '../harness';
import type { ApprovalResolution, CallPolicy } from '../harness';
import { FakeModelClient, NoisyFakeModelClient, NOISY_FAKE_MODEL, DEFAULT_NOISY_TEMPERATURE, seededRandom, type ScriptTurn } from '../harness';
import { HeuristicPlanner } from '../harness';
import { FakeGuardModel } from '../harness';
import { buildProductVocabulary } from '../harness';
import type { ModelClient } from '../harness';
import { createPayloadCap } from '../harness';
import type { RunResult, ToolCallRequest } from '../harness';
import type { Dataset } from './dataset/types';
import { StockroomEnvironment } from './environment';
import { LocalToolExecutor } from './executor/local-executor';
import { loopSwitchesFor, modelHabitsFor } from './weaknesses/weakness-table';

export interface StockroomAgent {
  readonly config: HarnessConfig;
  readonly dataset: Dataset;
  readonly executor: ToolExecutor;
  run(query: string, caseId?: string | null, options?: AgentRunOptions): Promise<RunResult>;
  /** Continues a run paused for approval, with the reviewer's (re-validated) resolution. */
  resume(paused: RunResult, resolution: ApprovalResolution, options?: AgentRunOptions): Promise<RunResult>;
  close(): Promise<void>;
}

export interface AgentRunOptions {
  runId?: string;
  clock?: Clock;
  /** Replaces the fake model (a live client, or a test double from lib/harness/testing). */
  model?: ModelClient;
  operationKey?: (call: ToolCallRequest) => string | undefined;
  /** Cancels the run (Ctrl-C, a stop button): the call in flight is aborted. */
  signal?: AbortSignal;
  /** Told of the run so far after each step (live progress; see HarnessOptions.onStep). */
  onStep?: HarnessOptions['onStep'];
  /** Told of a tool call's progress while it runs (see HarnessOptions.onToolProgress). */
  onToolProgress?: HarnessOptions['onToolProgress'];
  /** Told the answer so far while a streamed model call produces it (see HarnessOptions.onModelText). */
  onModelText?: HarnessOptions['onModelText'];
  /**
   * Which repetition of the case this run is (the noisy fake model's stream): a worker that runs one
   * epoch of a suite case in a fresh agent names it; by default the agent counts the case's runs.
   */
  epoch?: number;
}

/** What a live model client may carry as request metadata (the offline model server simulates the fake model with it). */
export interface LiveModelContext {
  caseId: string | null;
  weaknesses: readonly string[];
}

export interface CreateAgentOptions {
  dataset: Dataset;
  config: HarnessConfig;
  /** Defaults to the in-process executor over this dataset with the config's weakness flags. */
  executor?: ToolExecutor;
  /** Governance: a call policy attached to every run of this agent (none: the curriculum as is). */
  policy?: CallPolicy;
  /** A live model (lib/models): builds the client for each run. None: the fake model. */
  liveModel?: ((run: LiveModelContext) => ModelClient) | null;
  /** Prices the live model's usage for the run's cost and the USD budget guard. */
  costMeter?: CostMeter | null;
  /**
   * Told of every run this agent finishes (not of a pause): the seam the OpenTelemetry export plugs
   * into. It must not throw; a failure there never fails the run.
   */
  onRunFinished?: (run: RunResult) => void;
  /**
   * The judge of the guardrails' LLM guard. Default: the run's live model when there is one (a fresh
   * client per run), else the deterministic FakeGuardModel (which checks the policy's quoted terms only).
   */
  guardModel?: ModelClient;
}

const vocabularies = new WeakMap<Dataset, Set<string>>();

/** The planner's product vocabulary for a dataset, built once. */
export function productVocabulary(dataset: Dataset): Set<string> {
  let v = vocabularies.get(dataset);
  if (!v) {
    v = buildProductVocabulary(dataset.catalogue);
    vocabularies.set(dataset, v);
  }
  return v;
}

export function buildRunGuards(config: HarnessConfig): RunGuard[] {
  // `repeated_call` is no run guard object: it keeps the loop's own repeated-call guard on (execute-calls.ts).
  return config.guards.flatMap((name) => {
    switch (name) {
      case 'grounded_write':
        return [createGroundedWriteGuard()];
      case 'repeated_call':
        return [];
    }
  });
}

export function buildPayloadWrappers(config: HarnessConfig): PayloadWrapper[] {
  return config.payloadWrappers.map((name) => {
    switch (name) {
      case 'cap_payload':
        return createPayloadCap();
    }
  });
}

function guardModelFor(options: CreateAgentOptions): ModelClient {
  return options.guardModel ?? options.liveModel?.({ caseId: null, weaknesses: [] }) ?? new FakeGuardModel();
}

export async function createStockroomAgent(options: CreateAgentOptions): Promise<StockroomAgent> {
  const { dataset, config } = options;
  const executor = options.executor ?? new LocalToolExecutor(new StockroomEnvironment(dataset, config.weaknesses));
  const planner = new HeuristicPlanner({
    productVocabulary: productVocabulary(dataset),
    ...modelHabitsFor(config.weaknesses),
    floatKeys: dataset.floatKeys,
  });
  // The course's flags become plain switches here (lib/stockroom/weaknesses): the loop never reads a flag.
  const switches = loopSwitchesFor(config.weaknesses, config.guards);
  const runGuards = buildRunGuards(config);
  const payloadWrappers = buildPayloadWrappers(config);

  // The noisy fake model's runs per case so far: a case's nth run (its epoch) draws from its own seeded stream.
  const noisyRuns = new Map<string, number>();
  const fakeFor = (caseId: string | null, named?: number): ModelClient => {
    const script = caseId ? dataset.mockScripts.get(caseId)?.turns : undefined;
    const fake = new FakeModelClient({ planner, script: script as readonly ScriptTurn[] | undefined, floatKeys: dataset.floatKeys });
    if (config.model !== NOISY_FAKE_MODEL) return fake;
    const key = caseId ?? '';
    const epoch = named ?? noisyRuns.get(key) ?? 0;
    noisyRuns.set(key, epoch + 1);
    // The same stream under every weakness setting (common random numbers), so paired deltas compare like with like.
    const random = seededRandom(`${config.seed ?? 0}:${key}:${epoch}`);
    return new NoisyFakeModelClient({ inner: fake, random, temperature: config.temperature ?? DEFAULT_NOISY_TEMPERATURE });
  };
  const modelFor = (caseId: string | null, runOptions: AgentRunOptions): ModelClient =>
    runOptions.model ?? options.liveModel?.({ caseId, weaknesses: config.weaknesses }) ?? fakeFor(caseId, runOptions.epoch);
  const harnessOptions = (caseId: string | null, runOptions: AgentRunOptions): HarnessOptions => ({
    config,
    executor,
    model: modelFor(caseId, runOptions),
    systemPrompt: dataset.systemPrompt,
    floatKeys: dataset.floatKeys,
    runGuards,
    payloadWrappers,
    policy: options.policy,
    runId: runOptions.runId,
    clock: runOptions.clock,
    operationKey: runOptions.operationKey,
    signal: runOptions.signal,
    onStep: runOptions.onStep,
    onToolProgress: runOptions.onToolProgress,
    onModelText: runOptions.onModelText,
    costMeter: options.costMeter ?? undefined,
    guardModel: config.guardrails?.llm_guard ? guardModelFor(options) : undefined,
    ...switches,
  });

  const finished = (run: RunResult): RunResult => {
    if (run.status === 'finished' && options.onRunFinished) {
      try {
        options.onRunFinished(run);
      } catch {
        // An observer's failure is its own business; the run stands.
      }
    }
    return run;
  };

  return {
    config,
    dataset,
    executor,
    run: async (query, caseId = null, runOptions = {}) => finished(await runHarness({ query, caseId }, harnessOptions(caseId, runOptions))),
    resume: async (paused, resolution, runOptions = {}) =>
      finished(await resumeHarness(paused, resolution, harnessOptions(paused.caseId, runOptions))),
    close: () => executor.close(),
  };
}
