/**
 * Two multi-agent runs aligned by agent path: the planner's steps beside the planner's, the
 * inventory-checker's beside the inventory-checker's, each agent's steps counted from its own first
 * (a sub-agent that ran at run step 4 in A and step 6 in B still lines up at its step 1). An agent
 * only one run has is shown as only in A or only in B. Within an agent the steps align as
 * `alignRuns` aligns a whole single-agent run.
 */
import { alignRuns, type AlignEntry, type Alignment } from './align-runs';
import type { RunResult, TrajectoryStep } from '../harness';
import { agentsOf, agentIndexOf, agentLabel } from '../harness';
import { callStatus } from '../eval';

/** A trajectory entry and the path of the agent that made it (`planner › inventory-checker`). */
export type AgentAlignEntry = AlignEntry & { agent: string };

export interface AgentSide {
  entries: readonly AgentAlignEntry[];
  /** How each agent ended, by path (DONE, FAILED, a termination reason). */
  ended: ReadonlyMap<string, string>;
}

export interface AgentAlignment {
  path: string;
  /** Which runs have this agent. */
  presentIn: 'both' | 'a' | 'b';
  /** How the agent ended in each run (`did not run` where it is absent). */
  ended: { a: string; b: string };
  alignment: Alignment;
}

/** One trajectory step as the comparison reads it (harness events and imported spans as guard-like lines). */
export function alignEntryOf(e: TrajectoryStep): AlignEntry {
  switch (e.kind) {
    case 'model_turn':
      return { kind: 'model_turn', step: e.step, text: e.text };
    case 'tool_call':
      return { kind: 'tool_call', step: e.step, name: e.name, arguments: e.arguments, status: callStatus(e) };
    case 'guard':
      return { kind: 'guard', step: e.step, guard: e.guard, reason: e.reason, detail: e.detail };
    case 'compaction':
      return { kind: 'compaction', step: e.step };
    case 'model_retry':
      return { kind: 'guard', step: e.step, guard: 'model_retry', reason: e.reason, detail: e.detail };
    case 'guardrail':
      return { kind: 'guard', step: e.step, guard: `guardrail:${e.guardrail}`, reason: e.action, detail: e.detail };
    case 'span':
      return { kind: 'guard', step: e.step, guard: `span:${e.spanKind}`, reason: e.name, detail: '' };
    case 'tool_session':
      return { kind: 'guard', step: e.step, guard: `tool_session:${e.server}`, reason: e.reason, detail: e.detail };
  }
}

/** A stored run's side of an agent-by-agent comparison: each step with its agent's path, and how each agent ended. */
export function agentSideOf(run: Pick<RunResult, 'agents' | 'transitions' | 'trajectory' | 'usage' | 'costEstimate' | 'terminationReason' | 'startedAt' | 'durationMs'>): AgentSide {
  const agents = agentsOf(run);
  const paths = agents.map(agentLabel);
  const ended = new Map<string, string>();
  for (const a of agents) ended.set(agentLabel(a), a.rollup.outcome === 'completed' ? 'DONE' : a.rollup.outcome === 'failed' ? 'FAILED' : a.rollup.outcome === 'handed_off' ? 'handed off' : 'did not end');
  return { entries: run.trajectory.map((e) => ({ ...alignEntryOf(e), agent: paths[agentIndexOf(e)] ?? paths[0]! })), ended };
}

/** Whether a run has more than one agent (the compare page then aligns agent by agent). */
export function hasSeveralAgents(run: Pick<RunResult, 'agents'>): boolean {
  return (run.agents?.length ?? 0) > 1;
}

/** Renumbers one agent's entries to its own steps 1, 2, … in the order it made them. */
function ownSteps(entries: readonly AgentAlignEntry[]): AlignEntry[] {
  const stepOf = new Map<number, number>();
  for (const e of entries) if (!stepOf.has(e.step)) stepOf.set(e.step, stepOf.size + 1);
  return entries.map(({ agent: _agent, ...e }) => ({ ...e, step: stepOf.get(e.step)! }) as AlignEntry);
}

/** The last thing an agent said (its answer, for the "answers differ" mark). */
function lastText(entries: readonly AgentAlignEntry[]): string {
  for (let i = entries.length - 1; i >= 0; i -= 1) {
    const e = entries[i]!;
    if (e.kind === 'model_turn' && e.text) return e.text;
  }
  return '';
}

/** Every agent path of either run (A's order first, then B's new ones), each aligned step by step. */
export function alignByAgent(a: AgentSide, b: AgentSide): AgentAlignment[] {
  const paths: string[] = [];
  for (const e of [...a.entries, ...b.entries]) if (!paths.includes(e.agent)) paths.push(e.agent);
  return paths.map((path) => {
    const ea = a.entries.filter((e) => e.agent === path);
    const eb = b.entries.filter((e) => e.agent === path);
    const ended = { a: ea.length > 0 ? (a.ended.get(path) ?? 'not recorded') : 'did not run', b: eb.length > 0 ? (b.ended.get(path) ?? 'not recorded') : 'did not run' };
    return {
      path,
      presentIn: ea.length > 0 && eb.length > 0 ? 'both' : ea.length > 0 ? 'a' : 'b',
      ended,
      alignment: alignRuns({ entries: ownSteps(ea), terminationReason: ended.a, finalAnswer: lastText(ea) }, { entries: ownSteps(eb), terminationReason: ended.b, finalAnswer: lastText(eb) }),
    };
  });
}
