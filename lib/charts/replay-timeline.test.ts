import { describe, expect, it } from 'vitest';
import { budgetFromConfig, buildFrames, callIndexForStep, clampFrame, frameForStep, modelStepForFrame, tokenAxes, tokenSeries } from './replay-timeline';

const t = (index: number, step: number, from: string, to: string) => ({ index, step, from, to, reason: 'r' });

describe('buildFrames', () => {
  it('orders frames by log index and drops duplicates from overlapping pages', () => {
    const frames = buildFrames([t(1, 1, 'CALL_MODEL', 'EXECUTE_TOOLS'), t(0, 0, 'PLAN', 'CALL_MODEL'), t(1, 1, 'CALL_MODEL', 'EXECUTE_TOOLS')]);
    expect(frames.map((f) => [f.frame, f.state])).toEqual([
      [0, 'CALL_MODEL'],
      [1, 'EXECUTE_TOOLS'],
    ]);
  });
});

describe('clampFrame', () => {
  it('keeps the frame inside the log', () => {
    expect(clampFrame(-3, 5)).toBe(0);
    expect(clampFrame(9, 5)).toBe(4);
    expect(clampFrame(2.7, 5)).toBe(2);
    expect(clampFrame(3, 0)).toBe(0);
  });
});

describe('frameForStep', () => {
  it('finds the first frame of a step and falls back to the last frame', () => {
    const frames = buildFrames([t(0, 0, 'PLAN', 'CALL_MODEL'), t(1, 1, 'CALL_MODEL', 'EXECUTE_TOOLS'), t(2, 1, 'EXECUTE_TOOLS', 'OBSERVE')]);
    expect(frameForStep(frames, 1)).toBe(1);
    expect(frameForStep(frames, 7)).toBe(2);
  });
});

describe('callIndexForStep', () => {
  it('maps step k to model call k - 1 and PLAN to none', () => {
    expect(callIndexForStep(0)).toBeNull();
    expect(callIndexForStep(1)).toBe(0);
    expect(callIndexForStep(12)).toBe(11);
  });
});

describe('tokenSeries', () => {
  it('numbers calls from 1 and accumulates input plus output tokens', () => {
    const series = tokenSeries(
      [
        { step: 2, inputTokens: 974, outputTokens: 14 },
        { step: 1, inputTokens: 887, outputTokens: 6 },
      ],
      20000,
    );
    expect(series).toEqual([
      { call: 1, step: 1, inputTokens: 887, cumulativeTokens: 893, budget: 20000 },
      { call: 2, step: 2, inputTokens: 974, cumulativeTokens: 1881, budget: 20000 },
    ]);
  });
});

describe('budgetFromConfig', () => {
  it('reads a positive tokenBudget and ignores anything else', () => {
    expect(budgetFromConfig({ tokenBudget: 20000 })).toBe(20000);
    expect(budgetFromConfig({ tokenBudget: '1' })).toBeNull();
    expect(budgetFromConfig(null)).toBeNull();
  });
});

describe('modelStepForFrame', () => {
  it('looks ahead to the next call while about to call the model, and at this step otherwise', () => {
    expect(modelStepForFrame({ state: 'CALL_MODEL', step: 0 })).toBe(1);
    expect(modelStepForFrame({ state: 'CALL_MODEL', step: 3 })).toBe(4);
    expect(modelStepForFrame({ state: 'EXECUTE_TOOLS', step: 3 })).toBe(3);
    expect(modelStepForFrame({ state: 'DONE', step: 5 })).toBe(5);
  });
});

describe('tokenAxes', () => {
  it('scales the per-call bars to the largest call, not to the budget, and the running total to the budget', () => {
    const series = tokenSeries(
      [
        { step: 1, inputTokens: 1000, outputTokens: 50 },
        { step: 2, inputTokens: 1200, outputTokens: 60 },
      ] as never,
      20_000,
    );
    const axes = tokenAxes(series, 20_000);
    expect(axes.perCall[1]).toBeGreaterThanOrEqual(1200);
    expect(axes.perCall[1]).toBeLessThan(1200 * 1.5);
    expect(axes.total[1]).toBeGreaterThanOrEqual(20_000);
  });
});
