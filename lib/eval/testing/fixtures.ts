/**
 * Hand-built runs and golden cases for the metric tests: small, explicit, and independent of any
 * dataset. Only what a test states differs from a plain completed run.
 */
import type { JsonValue } from '../../harness';
import { pyJson } from '../../harness';
import type { ModelTurn, RunResult, TerminationReason, ToolRecord, TrajectoryStep } from '../../harness';
import type { GoldenCase } from '../golden';

/** A tool record; `executed` follows from validationError/blockedBy unless given. */
export function toolRecord(
  name: string,
  args: JsonValue,
  extra: Partial<Omit<ToolRecord, 'kind' | 'name' | 'arguments'>> = {},
): ToolRecord {
  const validationError = extra.validationError ?? null;
  const blockedBy = extra.blockedBy ?? null;
  return {
    kind: 'tool_call',
    step: extra.step ?? 1,
    toolUseId: extra.toolUseId ?? 'tooluse_000000000000',
    name,
    arguments: args,
    signature: `${name}:${pyJson(args, { sortKeys: true })}`,
    resultContent: extra.resultContent ?? {},
    isError: extra.isError ?? false,
    errorCode: extra.errorCode ?? null,
    validationError,
    blockedBy,
    executed: extra.executed ?? (validationError === null && blockedBy === null),
    payloadChars: extra.payloadChars ?? 2,
    latencyMs: 0,
    sanitized: extra.sanitized ?? false,
    quarantinedLines: extra.quarantinedLines ?? 0,
    quarantinedText: [],
    rewrittenBy: [],
    policy: null,
  };
}

/** A model turn with the given context estimate and input tokens. */
export function modelTurn(step: number, contextTokensEstimate: number, inputTokens = contextTokensEstimate): ModelTurn {
  return {
    kind: 'model_turn',
    step,
    text: null,
    toolCalls: [],
    stopReason: 'end_turn',
    inputTokens,
    outputTokens: 5,
    latencyMs: 0,
    contextTokensEstimate,
  };
}

export interface RunFixture {
  finalAnswer?: string;
  terminationReason?: TerminationReason;
  trajectory?: TrajectoryStep[];
  modelCalls?: number;
  inputTokens?: number;
  outputTokens?: number;
  costUsd?: number;
}

/** A RunResult around a trajectory. */
export function makeRun(fixture: RunFixture = {}): RunResult {
  const trajectory = fixture.trajectory ?? [];
  const turns = trajectory.filter((s): s is ModelTurn => s.kind === 'model_turn');
  const modelCalls = fixture.modelCalls ?? Math.max(1, turns.length);
  const inputTokens = fixture.inputTokens ?? 100 * modelCalls;
  const outputTokens = fixture.outputTokens ?? 10 * modelCalls;
  return {
    runId: 'run-fixture',
    caseId: null,
    query: 'fixture query',
    finalAnswer: fixture.finalAnswer ?? 'Done.',
    terminationReason: fixture.terminationReason ?? 'COMPLETED',
    trajectory,
    transitions: [],
    usage: {
      modelCalls,
      inputTokens,
      outputTokens,
      totalTokens: inputTokens + outputTokens,
      perCall: Array.from({ length: modelCalls }, () => ({ inputTokens: inputTokens / modelCalls, outputTokens: outputTokens / modelCalls })),
    },
    costEstimate: { usd: fixture.costUsd ?? 0, note: 'mock mode: no model calls were billed' },
    steps: modelCalls,
    startedAt: '2026-01-01T00:00:00.000Z',
    durationMs: 1,
    mode: 'mock',
    modelId: 'fake',
    weaknesses: [],
    systemPrompt: 'system',
    toolSpecs: [],
    modelInputs: [],
    status: 'finished',
    checkpoint: null,
  };
}

/** A golden case with the plain defaults of SPEC.md §12.1. */
export function goldenCase(overrides: Partial<GoldenCase> = {}): GoldenCase {
  return {
    id: 'T001',
    category: 'fixture',
    query: 'fixture query',
    expectedTools: [],
    trajectoryMatchMode: 'exact',
    expectedFacts: [],
    forbiddenFacts: [],
    expectedTermination: 'COMPLETED',
    mustNotCall: [],
    mockScript: null,
    referenceAnswer: 'reference',
    retrieval: null,
    maxSteps: null,
    tags: [],
    notes: null,
    ...overrides,
  };
}
