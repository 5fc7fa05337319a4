/**
 * Replaying a run of several agents: every agent's own transitions walked as one log (each frame
 * knows its agent), and each agent's state machine at any point of that walk, for the per-agent state
 * diagram. A single-agent run's log is its own transitions, unchanged.
 */
import type { TimelineTransition } from './replay-timeline';
import type { Agent } from '../harness/browser';
import { agentViewsOf, type AgentView } from './agent-tree';

/** One agent's own transitions, as the run stored them (steps are the run's). */
export interface AgentTransitions {
  transitions: ReadonlyArray<{ step: number; from: string; to: string; reason: string }>;
}

/**
 * All agents' transitions in one log: by run step; at the same step, an agent's own order is kept and
 * agents come in list order (root first, then in the order they started), so a sub-agent's first
 * transitions follow the parent's move that started it. Returns the log (indexes 0…n-1) and the agent
 * of each transition.
 */
export function mergeAgentTransitions(agents: readonly AgentTransitions[]): { transitions: TimelineTransition[]; agentOf: number[] } {
  const all = agents.flatMap((a, agent) => a.transitions.map((t, own) => ({ t, agent, own })));
  all.sort((x, y) => x.t.step - y.t.step || x.agent - y.agent || x.own - y.own);
  return {
    transitions: all.map(({ t }, index) => ({ index, step: t.step, from: t.from, to: t.to, reason: t.reason })),
    agentOf: all.map(({ agent }) => agent),
  };
}

/** What the state diagram of `agent` shows at frame `frame`: its transitions so far, where it is, its last move. */
export function agentStateAt(
  transitions: readonly TimelineTransition[],
  agentOf: readonly number[],
  frame: number,
  agent: number,
): { taken: TimelineTransition[]; current: string | null; last: TimelineTransition | null } {
  const taken: TimelineTransition[] = [];
  for (let i = 0; i <= frame && i < transitions.length; i += 1) if ((agentOf[i] ?? 0) === agent) taken.push(transitions[i]!);
  const last = taken.at(-1) ?? null;
  return { taken, current: last?.to ?? null, last };
}

/**
 * Where the replay goes for a node of the span tree: the first frame of `agent` at or after run step
 * `step` (several agents can move at one step), else the first frame at or after the step, else the last.
 */
export function frameForAgentStep(frames: ReadonlyArray<{ step: number }>, agentOf: readonly number[], step: number, agent: number | null): number {
  if (agent !== null) {
    const own = frames.findIndex((f, i) => f.step >= step && (agentOf[i] ?? 0) === agent);
    if (own >= 0) return own;
  }
  const any = frames.findIndex((f) => f.step >= step);
  return any >= 0 ? any : Math.max(0, frames.length - 1);
}

/** The first frame of `agent` (to move the replay to an agent), or -1 when it has none. */
export function firstFrameOfAgent(agentOf: readonly number[], agent: number): number {
  return agentOf.indexOf(agent);
}

/**
 * What the replay page hands the player for a run of several agents: the agents to draw, the one log
 * of their transitions and the agent of each; null for a run of one agent, whose replay stays as it was.
 */
export function agentReplayOf(agents: readonly Agent[], runDurationMs: number | null): { views: AgentView[]; transitions: TimelineTransition[]; agentOf: number[]; runDurationMs: number | null } | null {
  if (agents.length < 2) return null;
  const { transitions, agentOf } = mergeAgentTransitions(agents);
  return { views: agentViewsOf(agents), transitions, agentOf, runDurationMs };
}
