import { describe, expect, it } from 'vitest';
import { maxStepsGuard, tokenBudgetGuard, wallClockGuard } from './pre-call';
import { repeatedCallGuard } from './repeated-call';
import type { ToolRecord } from '../types';

describe('wall-clock guard', () => {
  it('continues up to the limit and stops with TIMEOUT past it, naming limit and elapsed time', () => {
    expect(wallClockGuard(60_000, 60)).toEqual({ stop: false });
    expect(wallClockGuard(61_250, 60)).toEqual({
      stop: true,
      guard: 'wall_clock',
      reason: 'TIMEOUT',
      detail: 'run exceeded the wall-clock limit of 60s (61.3s)',
    });
  });
});

describe('max-steps guard', () => {
  it('allows the last permitted model call and stops the next one with MAX_STEPS', () => {
    expect(maxStepsGuard(7, 8).stop).toBe(false);
    expect(maxStepsGuard(8, 8)).toMatchObject({ stop: true, reason: 'MAX_STEPS', detail: 'reached the per-run step limit of 8 model calls' });
  });
});

describe('token-budget guard', () => {
  it('treats the budget as a ceiling: used + next input + reserved output may equal it, not exceed it', () => {
    expect(tokenBudgetGuard(10_000, 8_976, 1024, 20_000).stop).toBe(false);
    const v = tokenBudgetGuard(10_000, 8_977, 1024, 20_000);
    expect(v).toMatchObject({ stop: true, guard: 'token_budget', reason: 'TOKEN_BUDGET' });
    expect(v.stop && v.detail).toBe(
      'next model call (~8977 input tokens + up to 1024 output) would exceed the budget of 20000 (used 10000)',
    );
  });

  it('stops outright once the tokens used reach the budget', () => {
    expect(tokenBudgetGuard(20_000, 1, 0, 20_000)).toMatchObject({ stop: true, detail: 'used 20000 tokens against a budget of 20000' });
  });
});

describe('repeated-call guard', () => {
  const record = (signature: string, validationError: string | null = null) =>
    ({ signature, validationError }) as unknown as ToolRecord;

  it('stops with REPEATED_CALL on the third identical call', () => {
    const earlier = [record('t:{"a": 1}'), record('t:{"a": 1}')];
    expect(repeatedCallGuard('t', 't:{"a": 1}', earlier, 3)).toEqual({
      stop: true,
      guard: 'repeated_call',
      reason: 'REPEATED_CALL',
      detail: 't was requested 3 times in a row with identical arguments',
    });
  });

  it('lets a second identical call through and resets when another call intervenes', () => {
    expect(repeatedCallGuard('t', 'x', [record('x')], 3).stop).toBe(false);
    expect(repeatedCallGuard('t', 'x', [record('x'), record('y'), record('x')], 3).stop).toBe(false);
  });

  it('does not count earlier calls that failed validation', () => {
    expect(repeatedCallGuard('t', 'x', [record('x'), record('x', 'bad')], 3).stop).toBe(false);
  });
});
