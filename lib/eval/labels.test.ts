import { describe, expect, it } from 'vitest';
import { labelDigest } from './label-digest';
import { currentLabels, DEFAULT_LABEL_SET, keyOfVerdict, labelProblem, LabelSetSchema, verdictForKey, type LabelContent } from './labels';

const label: LabelContent = { runId: 'r1', step: 2, labelSetVersion: 0, verdict: 'fail', category: null, score: 0.5, comment: 'x', createdBy: 'u', createdAt: '2026-01-01T00:00:00.000Z' };

describe('label sets and labels', () => {
  it('maps digit keys to verdicts in set order and back; other keys choose nothing', () => {
    expect(verdictForKey(DEFAULT_LABEL_SET, '1')).toBe(DEFAULT_LABEL_SET.verdicts[0]);
    expect(verdictForKey(DEFAULT_LABEL_SET, '2')).toBe(DEFAULT_LABEL_SET.verdicts[1]);
    expect(verdictForKey(DEFAULT_LABEL_SET, String(DEFAULT_LABEL_SET.verdicts.length + 1))).toBeNull();
    expect(verdictForKey(DEFAULT_LABEL_SET, 'a')).toBeNull();
    expect(keyOfVerdict(DEFAULT_LABEL_SET, 'fail')).toBe(String(DEFAULT_LABEL_SET.verdicts.indexOf('fail') + 1));
  });

  it('a label set needs pass and fail and no repeated name, each problem naming its field', () => {
    expect(LabelSetSchema.safeParse({ verdicts: ['good', 'bad'], categories: [] }).error?.issues[0]?.path).toEqual(['verdicts']);
    expect(LabelSetSchema.safeParse({ verdicts: ['pass', 'fail'], categories: ['pass'] }).error?.issues[0]?.path).toEqual(['categories']);
    expect(LabelSetSchema.safeParse({ verdicts: ['pass', 'fail'], categories: ['Bad Name'] }).success).toBe(false);
    expect(labelProblem(DEFAULT_LABEL_SET, { verdict: 'meh', category: null })?.field).toBe('verdict');
    expect(labelProblem(DEFAULT_LABEL_SET, { verdict: 'pass', category: 'nope' })?.field).toBe('category');
    expect(labelProblem(DEFAULT_LABEL_SET, { verdict: 'pass', category: DEFAULT_LABEL_SET.categories[0]! })).toBeNull();
  });

  it('the digest changes with every recorded field', () => {
    const base = labelDigest(label);
    for (const change of [{ verdict: 'pass' }, { step: null }, { score: 0.6 }, { comment: 'y' }, { createdBy: 'v' }, { createdAt: '2026-01-02T00:00:00.000Z' }, { labelSetVersion: 1 }]) {
      expect(labelDigest({ ...label, ...change })).not.toBe(base);
    }
    expect(labelDigest({ ...label })).toBe(base);
  });

  it('the current label of each run and step is the newest', () => {
    const ls = [
      { id: 'a', runId: 'r1', step: 2, createdAt: '2026-01-01T00:00:00Z', verdict: 'fail' },
      { id: 'b', runId: 'r1', step: 2, createdAt: '2026-01-02T00:00:00Z', verdict: 'pass' },
      { id: 'c', runId: 'r1', step: null, createdAt: '2026-01-01T00:00:00Z', verdict: 'fail' },
    ];
    expect(currentLabels(ls).map((l) => l.id).sort()).toEqual(['b', 'c']);
  });
});
