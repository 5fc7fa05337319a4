import { describe, expect, it } from 'vitest';
import { formatCost, sumCosts } from './cost';

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
    expect(sumCosts([{ costUsd: 0.25, costKnown: true }, { costUsd: 0.5, costKnown: true }])).toEqual({ usd: 0.75, known: true });
    expect(sumCosts([{ costUsd: 0.25, costKnown: true }, { costUsd: null, costKnown: false }])).toEqual({ usd: null, known: false });
  });
});
