import { describe, expect, it } from 'vitest';
import { callSignature, contextGrowthRatio, detectLoops } from './loops';
import { modelTurn } from './testing/fixtures';

const rec = (name: string, args: Record<string, unknown>, step: number) => ({ name, arguments: args as never, step });

describe('callSignature', () => {
  it('sorts keys at every depth and escapes non-ASCII', () => {
    expect(callSignature('t', { b: 1, a: { d: 'é', c: null } })).toBe('t:{"a": {"c": null, "d": "\\u00e9"}, "b": 1}');
  });
});

describe('detectLoops', () => {
  it('reports one repeated_identical_call per run of consecutive identical calls and one loop per signature seen 3 times', () => {
    const records = Array.from({ length: 8 }, (_, i) => rec('get_order_status', { order_id: 'ORD-9' }, i + 1));
    const findings = detectLoops(records);
    expect(findings.filter((f) => f.kind === 'repeated_identical_call')).toHaveLength(1);
    expect(findings.filter((f) => f.kind === 'loop')).toHaveLength(1);
    expect(findings.find((f) => f.kind === 'loop')?.steps).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it('counts separate runs separately and key order does not matter', () => {
    const findings = detectLoops([
      rec('a', { x: 1, y: 2 }, 1),
      rec('a', { y: 2, x: 1 }, 2),
      rec('b', {}, 3),
      rec('a', { x: 1, y: 2 }, 4),
      rec('a', { x: 1, y: 2 }, 5),
    ]);
    expect(findings.filter((f) => f.kind === 'repeated_identical_call')).toHaveLength(2);
    expect(findings.filter((f) => f.kind === 'loop')).toHaveLength(1);
  });

  it('finds no loop for two identical calls that are not adjacent', () => {
    expect(detectLoops([rec('a', {}, 1), rec('b', {}, 2), rec('a', {}, 3)])).toEqual([]);
  });

  it('flags a call whose arguments an earlier same-name call strictly contained', () => {
    const findings = detectLoops([rec('s', { query: 'q', max_results: 3 }, 1), rec('s', { query: 'q' }, 2), rec('s', { query: 'r' }, 3)]);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ kind: 'redundant_query', steps: [1, 2] });
  });

  it('honours a different window', () => {
    const records = [rec('a', {}, 1), rec('b', {}, 2), rec('a', {}, 3)];
    expect(detectLoops(records, 2).filter((f) => f.kind === 'loop')).toHaveLength(1);
  });
});

describe('contextGrowthRatio', () => {
  it('is last over first context size, to 3 decimals', () => {
    expect(contextGrowthRatio([modelTurn(1, 820), modelTurn(2, 13273)])).toBe(16.187);
  });

  it('falls back to input tokens when the estimate is 0, and is 1 without turns or with a zero first size', () => {
    expect(contextGrowthRatio([modelTurn(1, 0, 100), modelTurn(2, 0, 250)])).toBe(2.5);
    expect(contextGrowthRatio([])).toBe(1);
    expect(contextGrowthRatio([modelTurn(1, 0, 0), modelTurn(2, 10)])).toBe(1);
  });
});
