/** The RunResult of a run as it stands (finished, paused, or so far while it runs). */
import type { RunResult } from '../types';
import type { Driver } from './options';
import { costOf } from './run-cost';
import type { RunState } from './run-state';

/** The run's identity, fixed for its whole life (a resumed run keeps its id and start time). */
export interface RunIdentity {
  runId: string;
  startedAt: string;
}

export function runResult(d: Driver, run: RunState, id: RunIdentity): RunResult {
  const { config, model, systemPrompt, costMeter } = d.options;
  const paused = run.checkpoint !== null;
  return {
    runId: id.runId,
    caseId: d.input.caseId ?? null,
    query: d.input.query,
    finalAnswer: run.finalAnswer,
    terminationReason: run.termination,
    trajectory: run.trajectory,
    transitions: run.transitions,
    usage: run.usage,
    costEstimate: costOf(costMeter, config.mode, run.usage),
    steps: run.step,
    startedAt: id.startedAt,
    durationMs: Math.round((d.clock.now() - d.started) * 1000) / 1000,
    mode: config.mode,
    modelId: model.modelId,
    weaknesses: [...config.weaknesses].sort(),
    ...(config.guardrails ? { guardrails: config.guardrails } : {}),
    systemPrompt,
    toolSpecs: d.specList,
    modelInputs: run.modelInputs as unknown as RunResult['modelInputs'],
    ...(run.exchanges.length > 0 ? { exchanges: run.exchanges } : {}),
    status: paused ? 'paused' : 'finished',
    checkpoint: run.checkpoint,
  };
}
