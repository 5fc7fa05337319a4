/**
 * A run's tree of agents (issue 31) in storage: each step row carries its agent index and span ids
 * as three nullable columns; the agents themselves (with their transitions, rollups and times) and
 * what the import set aside are one JSON blob on the run (`agentTreeHash`); and one RunAgent row per
 * agent (name, path) lets the runs list filter by agent and count them. A run that lists no agents
 * stores no blob and one RunAgent row, `stockroom`, so "runs of agent X" covers every run alike.
 */
import { z } from 'zod';
import { agentLabel, agentsOf } from '../../harness';
import { AgentSchema, SetAsideSchema, type RunResult, type StepTree } from '../../harness';
import { InvalidInputError } from '../core';

export interface StepTreeColumns {
  agentIdx: number | null;
  spanId: string | null;
  parentSpanId: string | null;
}

export function stepTreeColumns(s: StepTree): StepTreeColumns {
  return { agentIdx: s.agent ?? null, spanId: s.spanId ?? null, parentSpanId: s.parentSpanId ?? null };
}

/** `{ agent, spanId, parentSpanId }` as far as the row has them (nothing for rows stored before trees). */
export function stepTreeOf(r: StepTreeColumns): StepTree {
  return {
    ...(r.agentIdx !== null ? { agent: r.agentIdx } : {}),
    ...(r.spanId !== null ? { spanId: r.spanId } : {}),
    ...(r.parentSpanId !== null ? { parentSpanId: r.parentSpanId } : {}),
  };
}

/** What the tree blob holds. */
export const AgentTreeSchema = z.object({ agents: z.array(AgentSchema), setAside: z.array(SetAsideSchema) });
export type AgentTree = z.infer<typeof AgentTreeSchema>;

/** The tree blob of a run, or null when it lists no agents and set nothing aside. */
export function agentTreeOf(run: Pick<RunResult, 'agents' | 'setAside' | 'trajectory'>): AgentTree | null {
  const agents = run.agents ?? [];
  const setAside = run.setAside ?? [];
  if (agents.length === 0 && setAside.length === 0) return null;
  // Every step's agent must name one of the run's agents.
  const count = Math.max(agents.length, 1);
  run.trajectory.forEach((s, i) => {
    if (s.agent !== undefined && s.agent >= count) throw new InvalidInputError(`run.trajectory.${i}.agent`, `run.trajectory.${i}.agent: step ${i} names agent ${s.agent}; the run has ${count}`);
  });
  agents.forEach((a, i) => {
    if (a.parent !== null && (a.parent >= agents.length || a.parent === i)) throw new InvalidInputError(`run.agents.${i}.parent`, `run.agents.${i}.parent: agent ${i} names parent ${a.parent}; the run has ${agents.length} agents`);
  });
  return { agents, setAside };
}

/** The RunAgent rows of a run: one per agent of agentsOf(run). */
export function runAgentRows(run: RunResult, runId: string) {
  return agentsOf(run).map((a, idx) => ({ runId, idx, name: a.name, path: agentLabel(a), parentIdx: a.parent, entered: a.entered }));
}
