import { describe, expect, it } from 'vitest';
import { numbersOf, packTimeline, unpackTimeline } from './timeline-codec';
import type { TimelineDto } from '../db/runs/run-timeline';

const timeline: TimelineDto = {
  transitions: [
    { index: 0, step: 0, from: 'PLAN', to: 'CALL_MODEL', reason: 'start' },
    { index: 1, step: 1, from: 'CALL_MODEL', to: 'EXECUTE_TOOLS', reason: '1 tool call(s)' },
    { index: 2, step: 1, from: 'EXECUTE_TOOLS', to: 'OBSERVE', reason: 'tool results appended' },
    { index: 3, step: 1, from: 'OBSERVE', to: 'CALL_MODEL', reason: 'observe → call model' },
    { index: 4, step: 2, from: 'CALL_MODEL', to: 'FAILED', reason: 'guard:max_steps' },
  ],
  calls: [
    { step: 1, inputTokens: 840, outputTokens: 8 },
    { step: 2, inputTokens: 953, outputTokens: 19 },
  ],
  events: [{ kind: 'guard', index: 3, step: 2, guard: 'max_steps', reason: 'MAX_STEPS', detail: 'reached the limit' }],
};

describe('timeline codec', () => {
  it('round-trips a timeline exactly', () => {
    expect(unpackTimeline(packTimeline(timeline))).toEqual(timeline);
  });

  it('keeps a call whose usage was not reported as null on both sides of the wire, never 0 (issue 40)', () => {
    const unreported: TimelineDto = {
      ...timeline,
      calls: [
        { step: 1, inputTokens: 840, outputTokens: 8 },
        { step: 2, inputTokens: null, outputTokens: null },
        { step: 3, inputTokens: 990, outputTokens: 12 },
      ],
    };
    expect(unpackTimeline(packTimeline(unreported))).toEqual(unreported);
  });

  it('stores each state and reason once, however often it repeats', () => {
    const long: TimelineDto = {
      ...timeline,
      transitions: Array.from({ length: 3000 }, (_, i) => ({ index: i, step: i, from: 'OBSERVE', to: 'CALL_MODEL', reason: 'observe → call model' })),
    };
    const packed = packTimeline(long);
    expect(packed.strings).toEqual(['OBSERVE', 'CALL_MODEL', 'observe → call model']);
    expect(numbersOf(packed.transitions)).toHaveLength(15_000);
    expect(JSON.stringify(packed).length).toBeLessThan(JSON.stringify(long).length / 3);
    expect(unpackTimeline(packed)).toEqual(long);
  });

  it('sends a long run\'s climbing indexes, steps and input tokens as small differences, and reads them back', () => {
    // The shape of a 20,000-step run: four transitions per step, one model call per step with a growing context.
    const long: TimelineDto = {
      transitions: Array.from({ length: 20_000 }, (_, i) => ({ index: i, step: Math.floor(i / 4), from: 'OBSERVE', to: 'CALL_MODEL', reason: 'observe → call model' })),
      calls: Array.from({ length: 5_000 }, (_, i) => ({ step: i + 1, inputTokens: 100 * (i + 1) + (i % 3), outputTokens: 20 + (i % 7) })),
      events: [],
    };
    const packed = packTimeline(long);
    // Packed as absolute values, the indexes and token counts run to five and six digits.
    for (const n of [...numbersOf(packed.transitions), ...numbersOf(packed.calls)]) expect(Math.abs(n)).toBeLessThan(1_000);
    expect(unpackTimeline(packed)).toEqual(long);
  });

  it('sends each list of numbers as one string, so the page\'s payload holds a few values, not one per number', () => {
    const long: TimelineDto = {
      transitions: Array.from({ length: 4_000 }, (_, i) => ({ index: i, step: Math.floor(i / 4), from: 'OBSERVE', to: 'CALL_MODEL', reason: 'observe → call model' })),
      calls: Array.from({ length: 1_000 }, (_, i) => ({ step: i + 1, inputTokens: 100 * (i + 1), outputTokens: i % 2 ? null : 20 })).map((c) => (c.outputTokens === null ? { ...c, inputTokens: null } : c)),
      events: [],
    };
    const packed = packTimeline(long);
    expect(typeof packed.transitions).toBe('string');
    expect(typeof packed.calls).toBe('string');
    expect(unpackTimeline(JSON.parse(JSON.stringify(packed)))).toEqual(long);
    expect(unpackTimeline(packTimeline({ transitions: [], calls: [], events: [] }))).toEqual({ transitions: [], calls: [], events: [] });
  });

  it('reads back indexes and steps that fall and gaps between them', () => {
    const odd: TimelineDto = {
      transitions: [5, 3, 9, 9, 2].map((index, i) => ({ index, step: [4, 1, 7, 7, 0][i]!, from: 'A', to: 'B', reason: 'r' })),
      calls: [3, 1, 8].map((step, i) => ({ step, inputTokens: [900, 10, 5000][i]!, outputTokens: i })),
      events: [],
    };
    expect(unpackTimeline(packTimeline(odd))).toEqual(odd);
  });
});
