import { describe, expect, it } from 'vitest';
import { calibrateJudge } from './calibration';
import { FakeJudge } from './judge';
import { calibrationSetFromLabels, humanScoreOf, isLabelsSet, labelsStillNeeded, MIN_CALIBRATION_LABELS, type LabelledRun } from './label-calibration';

const run = (runId: string, verdict: 'pass' | 'fail', answer: string): LabelledRun => ({
  runId,
  query: 'How many SKU-1 are in stock?',
  finalAnswer: answer,
  context: "get_stock({'sku': 'SKU-1'}) -> {'sku': 'SKU-1', 'stock': 42}",
  expectedFacts: ['42'],
  forbiddenFacts: [],
  verdict,
  score: null,
  comment: '',
});

describe('calibrating the judge on labels', () => {
  it('says how many more labels are needed below the minimum, none at or above it', () => {
    expect(labelsStillNeeded(0)).toBe(MIN_CALIBRATION_LABELS);
    expect(labelsStillNeeded(MIN_CALIBRATION_LABELS - 3)).toBe(3);
    expect(labelsStillNeeded(MIN_CALIBRATION_LABELS + 5)).toBe(0);
  });

  it('maps a 0-1 label score onto the 1-5 scale, and a missing one by the verdict', () => {
    expect([humanScoreOf('pass', 0), humanScoreOf('pass', 0.5), humanScoreOf('fail', 1)]).toEqual([1, 3, 5]);
    expect([humanScoreOf('pass', null), humanScoreOf('fail', null)]).toEqual([5, 1]);
  });

  it('a set of labelled runs is graded like the course set: items are run ids, a disagreement is a run the judge grades otherwise', async () => {
    const set = calibrationSetFromLabels('t1', [run('r2', 'pass', 'SKU-1 has 42 units in stock.'), run('r1', 'fail', 'SKU-1 has 42 units in stock.'), run('r3', 'fail', 'No idea.')]);
    expect(isLabelsSet(set.name)).toBe(true);
    expect(set.items.map((i) => i.id)).toEqual(['r1', 'r2', 'r3']);
    expect(calibrationSetFromLabels('t1', [...set.items].reverse().map((i) => run(i.id, i.human_label, i.answer))).sha256).toBe(set.sha256);
    const result = await calibrateJudge({ judge: new FakeJudge('v2'), set });
    const judged = new Map(result.items.map((i) => [i.id, i.verdict]));
    // Same answer, opposite labels: the judge can agree with only one of them.
    expect(judged.get('r1')).toBe(judged.get('r2'));
    expect(result.overall.n).toBe(3);
    expect(result.overall.agreed).toBeLessThan(3);
  });
});
