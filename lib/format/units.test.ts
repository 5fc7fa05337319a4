import { describe, expect, it } from 'vitest';
import { countOf, formatDuration } from './units';

describe('countOf', () => {
  it('says "1 step" rather than "1 steps"', () => {
    expect(countOf(1, 'step')).toBe('1 step');
    expect(countOf(0, 'step')).toBe('0 steps');
    expect(countOf(2, 'model call')).toBe('2 model calls');
    expect(countOf(1200, 'token')).toBe('1,200 tokens');
  });
});

describe('formatDuration', () => {
  it('keeps sub-millisecond runs distinguishable instead of printing 0 ms', () => {
    expect(formatDuration(0.4213)).toBe('0.42 ms');
    expect(formatDuration(1.005)).not.toBe('1 ms');
  });
  it('switches to whole milliseconds, then seconds and minutes', () => {
    expect(formatDuration(250.4)).toBe('250 ms');
    expect(formatDuration(4200)).toBe('4.2 s');
    expect(formatDuration(125_000)).toBe('2 min 5 s');
  });
  it('prints a dash for a duration that is not a number', () => {
    expect(formatDuration(Number.NaN)).toBe('—');
  });
});
