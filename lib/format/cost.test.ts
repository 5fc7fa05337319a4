import { describe, expect, it } from 'vitest';
import { formatCost, formatTokens, sumCosts } from './cost';

describe('cost display', () => {
  it('shows an unpriced model’s cost as unknown, not as $0', () => {
    expect(formatCost(0, false)).toBe('cost unknown');
    expect(formatCost(0, true)).toBe('$0');
  });

  it('keeps fractions of a cent readable', () => {
    expect(formatCost(0.000123, true)).toBe('$0.00012');
    expect(formatCost(1.5, true)).toBe('$1.50');
  });

  it('sums a suite and makes it unknown when any run is', () => {
    expect(sumCosts([{ costUsd: 0.25, costKnown: true }, { costUsd: 0.5, costKnown: true }])).toEqual({ usd: 0.75, known: true, unreportedCalls: 0 });
    expect(sumCosts([{ costUsd: 0.25, costKnown: true }, { costUsd: null, costKnown: false }])).toEqual({ usd: null, known: false, unreportedCalls: 0 });
  });

  it('says a sum that includes unreported calls is a lower bound, and how many (issue 40)', () => {
    expect(formatCost(0.0012, true, 1)).toBe('≥ $0.0012, 1 call unreported');
    expect(formatCost(0, true, 2)).toBe('≥ $0, 2 calls unreported');
    expect(formatCost(null, false, 2)).toBe('cost unknown');
    const sum = sumCosts([
      { costUsd: 0.001, costKnown: true, unreportedCalls: 1 },
      { costUsd: 0.0002, costKnown: true },
    ]);
    expect(sum).toMatchObject({ known: true, unreportedCalls: 1 });
    expect(sum.usd).toBeCloseTo(0.0012, 12);
    expect(formatCost(sum.usd, sum.known, sum.unreportedCalls)).toBe('≥ $0.0012, 1 call unreported');
  });

  it('shows tokens nobody reported as "not reported", never 0', () => {
    expect(formatTokens(1234)).toBe('1,234 tokens');
    expect(formatTokens(1234, 1)).toBe('≥ 1,234 tokens, 1 call unreported');
    expect(formatTokens(0, 2, true)).toBe('not reported');
    expect(formatTokens(null)).toBe('not reported');
  });
});
