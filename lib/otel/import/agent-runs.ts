/**
 * Each agent of an imported trace as the run keeps it (types.ts `Agent`): its own transitions,
 * derived from its own steps only (so none follows its DONE or FAILED), its rollup (its own calls,
 * tokens and cost: null when any of its calls has no price), its recorded times, and how it ended.
 */
import type { Agent, ModelTurn, TerminationReason, TrajectoryStep } from '../../harness';
import { ATTR_ERROR_TYPE } from '../attributes';
import { sumCosts } from './pricing';
import { ms, spanTime } from './step-records';
import { str } from './conventions/span-view';
import { deriveTransitions } from './transitions';
import type { SpanTree } from './tree';

export function agentsOfTrace(tree: SpanTree, trajectory: TrajectoryStep[], runTermination: TerminationReason): Agent[] {
  const handedTo = new Map<number, string>();
  tree.agents.forEach((a) => {
    if (a.entered === 'handoff' && a.parent !== null) handedTo.set(a.parent, a.name);
  });
  return tree.agents.map((node, index): Agent => {
    const steps = tree.agents.length === 1 ? trajectory : trajectory.filter((s) => (s.agent ?? 0) === index);
    const turns = steps.filter((s): s is ModelTurn => s.kind === 'model_turn');
    const span = node.span;
    const failed = index === 0 ? runTermination !== 'COMPLETED' : span?.statusCode === 2;
    const termination: TerminationReason = index === 0 ? runTermination : failed ? 'MODEL_ERROR' : 'COMPLETED';
    const transitions = deriveTransitions(steps, termination, index === 0 ? 0 : (turns[0]?.step ?? 0));
    const last = transitions.at(-1)?.to;
    const handed = handedTo.get(index);
    const outcome = failed ? 'failed' : handed !== undefined ? 'handed_off' : last === 'DONE' ? 'completed' : 'unfinished';
    const errorDetail = span ? (str(span.attributes[ATTR_ERROR_TYPE]) ?? (span.statusMessage || null)) : null;
    const priced = turns.map((t) => ({ usd: t.costUsd ?? null, note: t.costNote ?? '', missing: t.costUsd === null || t.costUsd === undefined ? `${t.providerId ?? t.provider ?? 'unknown provider'}:${t.model ?? 'unknown model'}` : null }));
    // An agent that made no model calls of its own spent nothing on them (its sub-agents' are theirs).
    const cost = priced.length === 0 ? { usd: 0, note: 'no model calls of its own' } : sumCosts(priced, `agent ${node.name}`);
    const timeSpan = span ?? tree.root;
    return {
      id: node.id,
      name: node.name,
      path: node.path,
      parent: node.parent,
      entered: node.entered,
      ...(node.via ? { via: node.via } : {}),
      parallelGroup: node.parallelGroup,
      ...(node.externalId ? { externalId: node.externalId } : {}),
      transitions,
      rollup: {
        modelCalls: turns.length,
        toolCalls: steps.filter((s) => s.kind === 'tool_call').length,
        inputTokens: turns.reduce((n, t) => n + (t.inputTokens ?? 0), 0),
        outputTokens: turns.reduce((n, t) => n + (t.outputTokens ?? 0), 0),
        costUsd: cost.usd,
        costNote: cost.note,
        latencyMs: ms(timeSpan.endNs - timeSpan.startNs),
        outcome,
        outcomeDetail: failed ? (index === 0 ? runTermination : (errorDetail ?? 'error status')) : handed !== undefined ? `handed off to ${handed}` : index === 0 ? runTermination : 'COMPLETED',
      },
      time: spanTime(tree.root, timeSpan),
    };
  });
}
