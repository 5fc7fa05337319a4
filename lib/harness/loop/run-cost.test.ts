import { describe, expect, it } from 'vitest';
import type { CostMeter } from '../cost';
import type { Usage } from '../types';
import { costOf, MOCK_COST_NOTE, usdBudgetCheck } from './run-cost';

const usage = (inputTokens: number, outputTokens: number, cachedTokens?: number): Usage => ({ modelCalls: 1, inputTokens, outputTokens, totalTokens: inputTokens + outputTokens, perCall: [], ...(cachedTokens !== undefined ? { cachedTokens } : {}) });
const perMillion: CostMeter = { note: 'prices of 2026-12-01', usd: (t) => (t.inputTokens * 2 + t.outputTokens * 8 - t.cachedTokens) / 1e6 };
const unpriced: CostMeter = { note: 'no price for this model', usd: () => null };

describe("a run's cost", () => {
  it('is what the meter says for the usage, cached tokens passed through', () => {
    expect(costOf(perMillion, 'live', usage(1_000, 100, 400))).toEqual({ usd: (2_000 + 800 - 400) / 1e6, note: 'prices of 2026-12-01' });
  });

  it('is known to be 0 for the fake model, and not known for a live model without a meter or a price', () => {
    expect(costOf(undefined, 'mock', usage(10, 10))).toEqual({ usd: 0, note: MOCK_COST_NOTE });
    expect(costOf(undefined, 'live', usage(10, 10))).toMatchObject({ usd: null, known: false });
    expect(costOf(unpriced, 'live', usage(10, 10))).toMatchObject({ usd: null, known: false, note: 'no price for this model' });
  });
});

describe('the usd budget before a call', () => {
  it('stops when what was spent plus the most the next call may cost would exceed the budget', () => {
    // spent 0.0028; next: 1,000 input + 100 output reserve = 0.0028 → 0.0056 > 0.005
    expect(usdBudgetCheck(perMillion, { usdBudget: 0.005, maxTokens: 100 }, usage(1_000, 100), 1_000)).toMatchObject({ stop: true, reason: 'COST_BUDGET' });
    expect(usdBudgetCheck(perMillion, { usdBudget: 0.006, maxTokens: 100 }, usage(1_000, 100), 1_000)).toMatchObject({ stop: false });
  });

  it('continues without a budget, or without a meter to price it', () => {
    expect(usdBudgetCheck(perMillion, { usdBudget: null, maxTokens: 100 }, usage(1e9, 1e9), 1)).toMatchObject({ stop: false });
    expect(usdBudgetCheck(undefined, { usdBudget: 0.0001, maxTokens: 100 }, usage(1e9, 1e9), 1)).toMatchObject({ stop: false });
  });
});
