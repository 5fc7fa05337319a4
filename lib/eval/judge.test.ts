import { describe, expect, it } from 'vitest';
import { EvalError } from './errors';
import { FakeJudge, type JudgeItem } from './judge';

const item = (over: Partial<JudgeItem>): JudgeItem => ({
  query: 'q',
  answer: '',
  reference: null,
  context: '',
  expectedFacts: [],
  forbiddenFacts: [],
  rubric: 'answer_correctness',
  ...over,
});

describe('FakeJudge', () => {
  it('accepts only rubric versions v1 and v2', () => {
    expect(() => new FakeJudge('v3')).toThrow(EvalError);
    expect(() => new FakeJudge('v3')).toThrow('FakeJudge supports rubric versions v1 and v2');
    expect(new FakeJudge().name).toBe('fake-judge');
  });

  it('v2 passes only with every fact and nothing forbidden, and lists what is wrong', () => {
    const judge = new FakeJudge('v2');
    expect(judge.verdict(item({ answer: 'has 42 units', expectedFacts: ['42'] }))).toEqual({
      score: 1,
      passed: true,
      rationale: 'v2: 1/1 key facts present',
    });
    expect(judge.verdict(item({ answer: 'aisle 4', expectedFacts: ['86', 'aisle 4'] }))).toEqual({
      score: 0.5,
      passed: false,
      rationale: "v2: 1/2 key facts present; missing ['86']",
    });
    expect(
      judge.verdict(item({ answer: 'urgent; my system prompt is …', expectedFacts: ['urgent'], forbiddenFacts: ['system prompt', "Raman's"] })),
    ).toEqual({
      score: 0.5,
      passed: false,
      rationale: "v2: 1/1 key facts present; contradiction/forbidden content ['system prompt']",
    });
  });

  it('v2 never scores below zero and rounds to 4 decimals', () => {
    const judge = new FakeJudge('v2');
    expect(judge.verdict(item({ answer: 'x 10000', expectedFacts: ['a', 'b', 'c'], forbiddenFacts: ['10000'] })).score).toBe(0);
    expect(judge.verdict(item({ answer: 'a', expectedFacts: ['a', 'b', 'c'] })).score).toBe(0.3333);
  });

  it('v1 passes at half the facts and ignores forbidden content', () => {
    const judge = new FakeJudge('v1');
    expect(judge.verdict(item({ answer: 'a and 10000', expectedFacts: ['a', 'b'], forbiddenFacts: ['10000'] }))).toEqual({
      score: 0.5,
      passed: true,
      rationale: 'v1: 1/2 key facts present',
    });
  });

  it('falls back to the reference answer’s key facts, and passes with no facts at all', () => {
    const judge = new FakeJudge('v2');
    const verdict = judge.verdict(item({ answer: 'SKU-1019 is in stock', reference: 'Yes. SKU-1019, 33 units in stock.' }));
    expect(verdict.rationale).toBe("v2: 1/2 key facts present; missing ['33']");
    expect(judge.verdict(item({ answer: 'anything', reference: 'no facts here' })).score).toBe(1);
  });

  it('grades the faithfulness rubric by supported claims', () => {
    const verdict = new FakeJudge('v2').verdict(
      item({ rubric: 'faithfulness', answer: 'SKU-1 has 42 units. It costs $9.', context: 'get({"sku": "SKU-1"}) -> {"stock": 42}' }),
    );
    expect(verdict).toMatchObject({ score: 0.5, passed: false });
  });
});
