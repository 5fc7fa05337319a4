import { describe, expect, it } from 'vitest';
import { alignRuns, canonicalJson, type AlignEntry } from './align-runs';

const turn = (step: number, text: string | null = null): AlignEntry => ({ kind: 'model_turn', step, text });
const call = (step: number, name: string, args: unknown, status = 'ok'): AlignEntry => ({ kind: 'tool_call', step, name, arguments: args, status });
const side = (entries: AlignEntry[], terminationReason = 'COMPLETED', finalAnswer = 'x') => ({ entries, terminationReason, finalAnswer });

describe('alignRuns', () => {
  it('finds nothing different in identical runs', () => {
    const entries = [turn(1), call(1, 'search_products', { query: 'straps' }), turn(2, 'done')];
    const result = alignRuns(side(entries), side(entries));
    expect(result.differentSteps).toBe(0);
    expect(result.steps.map((s) => s.difference)).toEqual(['same', 'same']);
    expect(result.terminationDiffers).toBe(false);
  });

  it('reports a different tool before different arguments', () => {
    const result = alignRuns(
      side([turn(1), call(1, 'search_products', { query: 'a' })]),
      side([turn(1), call(1, 'search_policy_docs', { query: 'b' })]),
    );
    expect(result.steps[0]!.difference).toBe('different_tool');
  });

  it('says which run answered when one answered and the other called a tool, rather than "different tool"', () => {
    const aAnswered = alignRuns(side([turn(2, 'SKU-2027: 230 units')]), side([turn(2), call(2, 'get_stock', { sku: 'SKU-2027' })]));
    expect(aAnswered.steps[0]!.difference).toBe('a_answered');
    const bAnswered = alignRuns(side([turn(2), call(2, 'get_stock', { sku: 'SKU-2027' })]), side([turn(2, 'done')]));
    expect(bAnswered.steps[0]!.difference).toBe('b_answered');
  });

  it('reports different arguments but ignores key order', () => {
    const same = alignRuns(side([call(1, 't', { a: 1, b: 2 })]), side([call(1, 't', { b: 2, a: 1 })]));
    expect(same.steps[0]!.difference).toBe('same');
    const diff = alignRuns(side([call(1, 't', { a: 1 })]), side([call(1, 't', { a: 2 })]));
    expect(diff.steps[0]!.difference).toBe('different_arguments');
  });

  it('reports a different outcome when only the status or guards differ', () => {
    const result = alignRuns(side([call(1, 't', {}, 'ok')]), side([call(1, 't', {}, 'blocked:grounded_write')]));
    expect(result.steps[0]!.difference).toBe('different_outcome');
  });

  it('reports a different final answer on a step without tool calls', () => {
    const result = alignRuns(side([turn(2, 'SKU-2027: 230 units')]), side([turn(2, 'I found 5 products')]));
    expect(result.steps[0]!.difference).toBe('different_answer');
  });

  it('marks steps only one run reached and a different termination', () => {
    const result = alignRuns(side([turn(1), turn(2)], 'COMPLETED'), side([turn(1)], 'MAX_STEPS', 'y'));
    expect(result.steps[1]).toMatchObject({ step: 2, difference: 'only_a', b: null });
    expect(result.terminationDiffers).toBe(true);
    expect(result.answerDiffers).toBe(true);
  });
});

describe('canonicalJson', () => {
  it('sorts keys at every depth', () => {
    expect(canonicalJson({ b: { d: 1, c: [{ f: 1, e: 2 }] }, a: null })).toBe('{"a":null,"b":{"c":[{"e":2,"f":1}],"d":1}}');
  });
});
