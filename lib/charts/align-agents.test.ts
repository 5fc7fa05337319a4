import { describe, expect, it } from 'vitest';
import { agentSideOf, alignByAgent, hasSeveralAgents, type AgentAlignEntry } from './align-agents';

const P = 'planner';
const C = 'planner › inventory-checker';
const turn = (agent: string, step: number, text: string | null = null): AgentAlignEntry => ({ kind: 'model_turn', step, text, agent });
const call = (agent: string, step: number, name: string, args: unknown = {}): AgentAlignEntry => ({ kind: 'tool_call', step, name, arguments: args, status: 'ok', agent });

describe('aligning two multi-agent runs by agent path', () => {
  it('lines a sub-agent up at its own steps although it ran at different run steps', () => {
    // A: the checker runs at steps 2–3; B: the planner made one more call first, so it runs at steps 3–4.
    const a = [turn(P, 1), call(P, 1, 'ask_checker'), turn(C, 2), call(C, 2, 'get_stock_level', { sku: 'SKU-1' }), turn(C, 3, 'ok'), turn(P, 4, 'done')];
    const b = [turn(P, 1), call(P, 1, 'search'), turn(P, 2), call(P, 2, 'ask_checker'), turn(C, 3), call(C, 3, 'get_stock_level', { sku: 'SKU-1' }), turn(C, 4, 'ok'), turn(P, 5, 'done')];
    const out = alignByAgent({ entries: a, ended: new Map([[P, 'DONE'], [C, 'DONE']]) }, { entries: b, ended: new Map([[P, 'DONE'], [C, 'DONE']]) });
    expect(out.map((s) => [s.path, s.presentIn])).toEqual([
      [P, 'both'],
      [C, 'both'],
    ]);
    const checker = out[1]!.alignment;
    expect(checker.steps.map((s) => [s.step, s.difference])).toEqual([
      [1, 'same'],
      [2, 'same'],
    ]);
    expect(checker.differentSteps).toBe(0);
    const planner = out[0]!.alignment;
    expect(planner.steps[0]!.difference).toBe('different_tool');
    expect(planner.steps.map((s) => s.step)).toEqual([1, 2, 3]);
  });

  it('shows an agent only one run has as only in that run', () => {
    const out = alignByAgent({ entries: [turn(P, 1, 'hi')], ended: new Map([[P, 'DONE']]) }, { entries: [turn(P, 1), call(P, 1, 'ask'), turn(C, 2, 'x')], ended: new Map([[C, 'FAILED']]) });
    const checker = out.find((s) => s.path === C)!;
    expect(checker.presentIn).toBe('b');
    expect(checker.alignment.steps.every((s) => s.difference === 'only_b')).toBe(true);
    expect(checker.alignment.terminationDiffers).toBe(true);
    expect(checker.ended).toEqual({ a: 'did not run', b: 'FAILED' });
  });

  it('compares how each agent ended and what it said last', () => {
    const out = alignByAgent({ entries: [turn(P, 1, 'yes')], ended: new Map([[P, 'DONE']]) }, { entries: [turn(P, 1, 'no')], ended: new Map([[P, 'FAILED']]) });
    expect(out[0]!.alignment).toMatchObject({ terminationDiffers: true, answerDiffers: true });
  });
});

describe('a stored run’s side', () => {
  const base = { transitions: [], usage: { modelCalls: 0, inputTokens: 0, outputTokens: 0, totalTokens: 0, perCall: [] }, costEstimate: { usd: 0, note: '' }, terminationReason: 'COMPLETED' as const, startedAt: '2026-12-06T00:00:00.000Z', durationMs: 10 };
  const rollup = (outcome: 'completed' | 'failed') => ({ modelCalls: 1, toolCalls: 0, inputTokens: 1, outputTokens: 1, costUsd: null, costNote: '', latencyMs: null, outcome, outcomeDetail: '' });

  it('names each step’s agent by path and says how each agent ended', () => {
    const side = agentSideOf({
      ...base,
      agents: [
        { id: 'a', name: 'planner', path: ['planner'], parent: null, entered: 'root', parallelGroup: null, transitions: [], rollup: rollup('completed') },
        { id: 'b', name: 'inventory-checker', path: ['planner', 'inventory-checker'], parent: 0, entered: 'delegate', parallelGroup: null, transitions: [], rollup: rollup('failed') },
      ],
      trajectory: [
        { kind: 'model_turn', step: 1, text: null, toolCalls: [], stopReason: 'tool_use', inputTokens: 1, outputTokens: 1, latencyMs: 1, contextTokensEstimate: 1 },
        { kind: 'model_turn', step: 2, text: 'x', toolCalls: [], stopReason: 'end_turn', inputTokens: 1, outputTokens: 1, latencyMs: 1, contextTokensEstimate: 1, agent: 1 },
      ],
    } as unknown as Parameters<typeof agentSideOf>[0]);
    expect(side.entries.map((e) => e.agent)).toEqual([P, C]);
    expect([...side.ended]).toEqual([
      [P, 'DONE'],
      [C, 'FAILED'],
    ]);
  });

  it('reads a single-agent harness run as the one agent `stockroom`', () => {
    const run = { ...base, trajectory: [{ kind: 'compaction', step: 1, tokensBefore: 2, tokensAfter: 1, resultsSummarised: 1 }] } as unknown as Parameters<typeof agentSideOf>[0];
    expect(agentSideOf(run).entries.map((e) => e.agent)).toEqual(['stockroom']);
    expect(hasSeveralAgents(run)).toBe(false);
  });
});
