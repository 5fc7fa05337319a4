/**
 * Reading a run as a tree of agents (types.ts explains the model). Every reader goes through
 * agentsOf: a run that lists no agents (the harness's own runs, runs stored before agents were) is
 * one agent named `stockroom` whose transitions, figures and times are the run's.
 */
import type { Agent, AgentRollup, RunResult, TrajectoryStep } from './types';

/** The name of the one agent of a run that lists none (the Stockroom harness's own runs). */
export const DEFAULT_AGENT_NAME = 'stockroom';

/** How a path is written for people: `planner › inventory-checker`. */
export const AGENT_PATH_SEPARATOR = ' › ';

export const agentLabel = (agent: Pick<Agent, 'path'>): string => agent.path.join(AGENT_PATH_SEPARATOR);

/** The index (into agentsOf(run)) of the agent a step belongs to: its own, else the root. */
export const agentIndexOf = (step: Pick<TrajectoryStep, 'agent'>): number => step.agent ?? 0;

type RunShape = Pick<RunResult, 'agents' | 'transitions' | 'trajectory' | 'usage' | 'costEstimate' | 'terminationReason' | 'startedAt' | 'durationMs'>;

/** The run's agents, root first; one `stockroom` agent for a run that lists none. */
export function agentsOf(run: RunShape): Agent[] {
  if (run.agents && run.agents.length > 0) return run.agents;
  const endedAt = new Date(new Date(run.startedAt).getTime() + run.durationMs);
  const last = run.transitions.at(-1)?.to;
  return [
    {
      id: DEFAULT_AGENT_NAME,
      name: DEFAULT_AGENT_NAME,
      path: [DEFAULT_AGENT_NAME],
      parent: null,
      entered: 'root',
      parallelGroup: null,
      transitions: run.transitions,
      rollup: {
        modelCalls: run.usage.modelCalls,
        toolCalls: run.trajectory.filter((s) => s.kind === 'tool_call').length,
        inputTokens: run.usage.inputTokens,
        outputTokens: run.usage.outputTokens,
        costUsd: run.costEstimate.known === false ? null : run.costEstimate.usd,
        costNote: run.costEstimate.note,
        latencyMs: run.durationMs,
        outcome: last === 'DONE' ? 'completed' : last === 'FAILED' ? 'failed' : 'unfinished',
        outcomeDetail: run.terminationReason,
      },
      ...(Number.isNaN(endedAt.getTime()) ? {} : { time: { startedAt: run.startedAt, endedAt: endedAt.toISOString(), startMs: 0, endMs: run.durationMs } }),
    },
  ];
}

/** The indexes of an agent's children, in list order. */
export function childrenOf(agents: readonly Agent[], index: number): number[] {
  return agents.flatMap((a, i) => (a.parent === index ? [i] : []));
}

/**
 * An agent's figures with its whole subtree's added (tokens, calls, cost: null when any is unknown;
 * latency and outcome stay the agent's own).
 */
export function subtreeRollup(agents: readonly Agent[], index: number): AgentRollup {
  const own = agents[index]!.rollup;
  const sum = { ...own };
  const notes = new Set([own.costNote]);
  const walk = (i: number) => {
    for (const c of childrenOf(agents, i)) {
      const r = agents[c]!.rollup;
      sum.modelCalls += r.modelCalls;
      sum.toolCalls += r.toolCalls;
      sum.inputTokens += r.inputTokens;
      sum.outputTokens += r.outputTokens;
      sum.costUsd = sum.costUsd === null || r.costUsd === null ? null : sum.costUsd + r.costUsd;
      notes.add(r.costNote);
      walk(c);
    }
  };
  walk(index);
  return { ...sum, costNote: [...notes].filter(Boolean).join('; ') };
}
