import { describe, expect, it } from 'vitest';
import { agentReplayOf, agentStateAt, firstFrameOfAgent, frameForAgentStep, mergeAgentTransitions } from './agent-frames';

const t = (step: number, from: string, to: string, reason = '') => ({ step, from, to, reason });
const planner = {
  transitions: [t(0, 'PLAN', 'CALL_MODEL'), t(1, 'CALL_MODEL', 'EXECUTE_TOOLS', 'delegate'), t(1, 'EXECUTE_TOOLS', 'OBSERVE'), t(4, 'OBSERVE', 'CALL_MODEL'), t(4, 'CALL_MODEL', 'EXECUTE_TOOLS'), t(5, 'CALL_MODEL', 'DONE')],
};
const checker = { transitions: [t(1, 'PLAN', 'CALL_MODEL'), t(2, 'CALL_MODEL', 'EXECUTE_TOOLS'), t(2, 'EXECUTE_TOOLS', 'OBSERVE'), t(3, 'CALL_MODEL', 'DONE')] };

describe('one log of several agents', () => {
  it('walks every agent’s transitions by step, keeping each agent’s own order, and numbers them afresh', () => {
    const { transitions, agentOf } = mergeAgentTransitions([planner, checker]);
    expect(transitions.map((x) => x.index)).toEqual([...transitions.keys()]);
    expect(transitions.map((x) => x.step)).toEqual([0, 1, 1, 1, 2, 2, 3, 4, 4, 5]);
    expect(agentOf).toEqual([0, 0, 0, 1, 1, 1, 1, 0, 0, 0]);
    for (const [agent, source] of [planner, checker].entries()) {
      const own = transitions.filter((_, i) => agentOf[i] === agent).map(({ step, from, to, reason }) => ({ step, from, to, reason }));
      expect(own).toEqual(source.transitions);
    }
  });

  it('is the run’s own log for one agent', () => {
    const { transitions, agentOf } = mergeAgentTransitions([planner]);
    expect(transitions.map(({ step, from, to }) => [step, from, to])).toEqual(planner.transitions.map(({ step, from, to }) => [step, from, to]));
    expect(agentOf.every((a) => a === 0)).toBe(true);
  });
});

describe('an agent’s state machine during the replay', () => {
  const { transitions, agentOf } = mergeAgentTransitions([planner, checker]);

  it('has not started before its first transition, and shows where it is after', () => {
    expect(agentStateAt(transitions, agentOf, 2, 1)).toEqual({ taken: [], current: null, last: null });
    const at = agentStateAt(transitions, agentOf, 4, 1);
    expect(at.current).toBe('EXECUTE_TOOLS');
    expect(at.taken.map((x) => x.to)).toEqual(['CALL_MODEL', 'EXECUTE_TOOLS']);
  });

  it('stays at its own DONE while the other agents go on', () => {
    expect(agentStateAt(transitions, agentOf, 9, 1).current).toBe('DONE');
    expect(agentStateAt(transitions, agentOf, 9, 0).current).toBe('DONE');
    expect(agentStateAt(transitions, agentOf, 7, 0).current).toBe('CALL_MODEL');
  });

  it('moves to the clicked agent’s own frame at a step two agents share', () => {
    // Step 1: the planner's two moves come first, then the checker's first.
    expect(frameForAgentStep(transitions, agentOf, 1, 1)).toBe(3);
    expect(frameForAgentStep(transitions, agentOf, 1, 0)).toBe(1);
    expect(frameForAgentStep(transitions, agentOf, 1, null)).toBe(1);
    expect(frameForAgentStep(transitions, agentOf, 99, 0)).toBe(transitions.length - 1);
  });

  it('finds an agent’s first frame', () => {
    expect(firstFrameOfAgent(agentOf, 1)).toBe(3);
    expect(firstFrameOfAgent(agentOf, 5)).toBe(-1);
  });
});

describe('what the replay page hands the player', () => {
  const stored = (name: string, path: string[], parent: number | null, transitions: typeof planner.transitions) => ({
    id: name,
    name,
    path,
    parent,
    entered: parent === null ? ('root' as const) : ('delegate' as const),
    parallelGroup: null,
    transitions: transitions.map((x) => ({ ...x, from: x.from as 'PLAN', to: x.to as 'PLAN' })),
    rollup: { modelCalls: 1, toolCalls: 0, inputTokens: 1, outputTokens: 1, costUsd: null, costNote: '', latencyMs: null, outcome: 'completed' as const, outcomeDetail: '' },
  });

  it('is nothing for a single-agent run, whose replay stays as it was', () => {
    expect(agentReplayOf([stored('stockroom', ['stockroom'], null, planner.transitions)], 100)).toBeNull();
  });

  it('gives the agents, their one log and the agent of each transition', () => {
    const r = agentReplayOf([stored('planner', ['planner'], null, planner.transitions), stored('checker', ['planner', 'checker'], 0, checker.transitions)], 100)!;
    expect(r.views.map((v) => v.name)).toEqual(['planner', 'checker']);
    expect(r.transitions).toHaveLength(planner.transitions.length + checker.transitions.length);
    expect(r.agentOf).toHaveLength(r.transitions.length);
  });
});
