/**
 * Two multi-agent runs aligned by agent path: the planner's steps beside the planner's, the
 * inventory-checker's beside the inventory-checker's, each agent's steps counted from its own first
 * (a sub-agent that ran at run step 4 in A and step 6 in B still lines up at its step 1). An agent
 * only one run has is shown as only in A or only in B. Within an agent the steps align as
 * `alignRuns` aligns a whole single-agent run.
 */
import { alignRuns, type AlignEntry, type Alignment } from './align-runs';

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
  alignment: Alignment;
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
    return {
      path,
      presentIn: ea.length > 0 && eb.length > 0 ? 'both' : ea.length > 0 ? 'a' : 'b',
      alignment: alignRuns(
        { entries: ownSteps(ea), terminationReason: a.ended.get(path) ?? (ea.length > 0 ? 'not recorded' : 'did not run'), finalAnswer: lastText(ea) },
        { entries: ownSteps(eb), terminationReason: b.ended.get(path) ?? (eb.length > 0 ? 'not recorded' : 'did not run'), finalAnswer: lastText(eb) },
      ),
    };
  });
}
