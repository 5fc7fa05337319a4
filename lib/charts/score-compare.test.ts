import { describe, expect, it } from 'vitest';
import { compareScores } from './score-compare';

describe('two runs’ evaluator scores side by side', () => {
  it('takes each side’s newest version and leaves a missing score null, with no delta', () => {
    const rows = compareScores(
      [
        { evaluatorName: 'judge', evaluatorVersion: 1, score: 0.2 },
        { evaluatorName: 'judge', evaluatorVersion: 2, score: 0.5 },
        { evaluatorName: 'loops', evaluatorVersion: 1, score: 1 },
      ],
      [{ evaluatorName: 'judge', evaluatorVersion: 2, score: 0.75 }],
    );
    expect(rows).toEqual([
      { evaluator: 'judge', a: 0.5, b: 0.75, delta: 0.25 },
      { evaluator: 'loops', a: 1, b: null, delta: null },
    ]);
  });
});
