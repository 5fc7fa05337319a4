import { describe, expect, it } from 'vitest';
import { judgeRequest, VERDICT_TOOL, verdictFromResponse } from './judge-prompt';

const call = (args: unknown) => ({ text: null, toolCalls: [{ toolUseId: 't1', name: VERDICT_TOOL.name, arguments: args as never }] });

describe('the live judge’s request and the verdict read from its answer', () => {
  it('sends the rubric, the answer, the context and the facts, with the verdict tool', () => {
    const r = judgeRequest({ query: 'Stock of SKU-1?', answer: 'It has 42.', reference: null, context: 'stock_level 42', expectedFacts: ['42'], forbiddenFacts: ['0 units'], rubric: 'answer_correctness' });
    const user = JSON.stringify(r.messages);
    expect(r.system).toContain('answer correctness');
    for (const part of ['It has 42.', 'stock_level 42', 'Expected facts: [\\"42\\"]', 'Forbidden facts: [\\"0 units\\"]']) expect(user).toContain(part);
    expect(r.tools.map((t) => t.name)).toEqual([VERDICT_TOOL.name]);
    const f = judgeRequest({ query: 'q', answer: 'a', reference: null, context: 'c', expectedFacts: [], forbiddenFacts: [], rubric: 'faithfulness' });
    expect(f.system).toContain('faithfulness');
  });

  it('reads a verdict from the tool call, or from JSON in the text', () => {
    expect(verdictFromResponse(call({ score: 0.66666, passed: false, rationale: 'missing one fact' }))).toEqual({ score: 0.6667, passed: false, rationale: 'missing one fact' });
    expect(verdictFromResponse({ text: 'Verdict: {"score": 1, "passed": true, "rationale": "all there"} done', toolCalls: [] })).toEqual({ score: 1, passed: true, rationale: 'all there' });
  });

  it('turns malformed output into a typed unscored outcome naming the problem, never an exception', () => {
    expect(verdictFromResponse({ text: 'Looks good to me!', toolCalls: [] })).toMatchObject({ unscored: 'malformed_output' });
    expect(verdictFromResponse(call({ score: 1.5, passed: true, rationale: 'x' }))).toMatchObject({ unscored: 'malformed_output', detail: expect.stringContaining('score') });
    expect(verdictFromResponse(call({ score: 1, rationale: 'x' }))).toMatchObject({ unscored: 'malformed_output', detail: expect.stringContaining('passed') });
    expect(verdictFromResponse(call('{"score": 1, "passed": tr'))).toMatchObject({ unscored: 'malformed_output' });
    expect(verdictFromResponse({ text: '{"score": 1, "passed": tr', toolCalls: [] })).toMatchObject({ unscored: 'malformed_output' });
  });
});
