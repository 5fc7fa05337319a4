import { describe, expect, it } from 'vitest';
import { casesMovedOverEpochs, casesOverEpochs, scoreOverEpochs } from './case-epochs';

const row = (caseId: string, epoch: number, runId: string, scores: Record<string, unknown>, category = 'lookup') => ({ caseId, epoch, runId, category, scores });

describe('scoreOverEpochs', () => {
  it('keeps one epoch’s score as it is, and takes the mean over several (a pass/fail as 0/1, 4 places)', () => {
    expect(scoreOverEpochs([true])).toBe(true);
    expect(scoreOverEpochs([1891])).toBe(1891);
    expect(scoreOverEpochs([true, false, true])).toBe(0.6667);
    expect(scoreOverEpochs([100, 150])).toBe(125);
    expect(scoreOverEpochs(['COMPLETED', 'COMPLETED'])).toBe('COMPLETED');
    expect(scoreOverEpochs(['COMPLETED', 'MAX_STEPS'])).toBeNull();
    expect(scoreOverEpochs([])).toBeNull();
  });
});

describe('casesMovedOverEpochs', () => {
  it('with one epoch lists the cases whose score differs, with both run ids; an unpaired case is left out', () => {
    const moved = casesMovedOverEpochs(
      [row('S1', 0, 'r1', { toolSelection: 1 }), row('S2', 0, 'r2', { toolSelection: 1 })],
      [row('S1', 0, 'q1', { toolSelection: 0 }), row('S2', 0, 'q2', { toolSelection: 1 }), row('S3', 0, 'q3', { toolSelection: 0 })],
      'toolSelection',
    );
    expect(moved).toEqual([{ caseId: 'S1', category: 'lookup', baseline: 1, value: 0, delta: -1, epochs: 1, movedEpochs: 1, epoch: 0, baselineRunId: 'r1', runId: 'q1' }]);
  });

  it('compares a case over all its epochs: a case whose first epoch agrees but whose second fails is listed, with the pair that differs', () => {
    const base = [row('S1', 0, 'b0', { correct: true }), row('S1', 1, 'b1', { correct: true }), row('S1', 2, 'b2', { correct: true })];
    const cur = [row('S1', 0, 'c0', { correct: true }), row('S1', 1, 'c1', { correct: false }), row('S1', 2, 'c2', { correct: true })];
    // Pairing the first epoch alone found nothing here.
    expect(casesMovedOverEpochs(base, cur, 'correct')).toEqual([
      { caseId: 'S1', category: 'lookup', baseline: 1, value: 0.6667, delta: -0.3333, epochs: 3, movedEpochs: 1, epoch: 1, baselineRunId: 'b1', runId: 'c1' },
    ]);
  });

  it('does not list a case whose first epochs differ but whose score over its epochs is the same', () => {
    const base = [row('S1', 0, 'b0', { correct: true }), row('S1', 1, 'b1', { correct: false })];
    const cur = [row('S1', 1, 'c1', { correct: true }), row('S1', 0, 'c0', { correct: false })];
    expect(casesMovedOverEpochs(base, cur, 'correct')).toEqual([]);
  });

  it('counts only the epochs the given test calls moved (token noise is not a move)', () => {
    const tokens = (caseId: string, runs: number[], prefix: string) => runs.map((t, e) => row(caseId, e, `${prefix}${e}`, { inputTokens: t }));
    const moved = (a: unknown, b: unknown) => typeof a === 'number' && typeof b === 'number' && Math.abs(b - a) >= a * 0.1;
    const out = casesMovedOverEpochs(tokens('S1', [1000, 1000, 1000, 1000], 'b'), tokens('S1', [1001, 2000, 2003, 1000], 'c'), 'inputTokens', moved);
    expect(out).toHaveLength(1);
    expect(out[0]).toMatchObject({ baseline: 1000, value: 1501, delta: 501, epochs: 4, movedEpochs: 2, epoch: 1, baselineRunId: 'b1', runId: 'c1' });
    expect(casesMovedOverEpochs(tokens('S1', [1000, 1000], 'b'), tokens('S1', [1001, 1050], 'c'), 'inputTokens', moved)).toEqual([]);
  });
});

describe('casesOverEpochs', () => {
  it('gives one row per setting and case, each score over the case’s epochs, linked to its first run', () => {
    const rows = [
      { setting: 'none', ...row('S1', 1, 'n1', { correct: false, steps: 4, reason: 'COMPLETED' }) },
      { setting: 'none', ...row('S1', 0, 'n0', { correct: true, steps: 3, reason: 'COMPLETED' }) },
      { setting: 'naive_retry', ...row('S1', 0, 'x0', { correct: true, steps: 3, reason: 'COMPLETED' }) },
    ];
    const out = casesOverEpochs(rows);
    expect(out.map(({ rows: _rows, ...c }) => c)).toEqual([
      { setting: 'none', caseId: 'S1', category: 'lookup', runId: 'n0', epochs: 2, scores: { correct: 0.5, steps: 3.5, reason: 'COMPLETED' } },
      { setting: 'naive_retry', caseId: 'S1', category: 'lookup', runId: 'x0', epochs: 1, scores: { correct: true, steps: 3, reason: 'COMPLETED' } },
    ]);
  });
});
