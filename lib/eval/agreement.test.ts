import { describe, expect, it } from 'vitest';
import { agreementStats, type LabelPair } from './agreement';
import { referenceKappa } from './testing/kappa-reference';

const label = (b: boolean) => (b ? 'pass' : 'fail');

/** A small deterministic generator, so the cases are many and varied but reproducible. */
function pairsFrom(seed: number, n: number): LabelPair[] {
  let x = seed;
  const next = () => ((x = (x * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  return Array.from({ length: n }, () => ({ judge: next() < 0.6, human: next() < 0.5 }));
}

describe("agreement and Cohen's kappa", () => {
  it('equals the textbook contingency-table computation on many label sets', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const pairs = pairsFrom(seed, 5 + seed);
      const stats = agreementStats(pairs);
      const ref = referenceKappa(pairs.map((p) => label(p.judge)), pairs.map((p) => label(p.human)));
      expect(stats.agreement).toBeCloseTo(ref.po, 4);
      if (ref.kappa === null) expect(stats.kappa).toBeNull();
      else expect(stats.kappa).toBeCloseTo(ref.kappa, 4);
      const { tp, fp, fn, tn } = stats.confusion;
      expect(tp + fp + fn + tn).toBe(pairs.length);
      expect(stats.agreed).toBe(tp + tn);
    }
  });

  it('is 1 for a judge that always agrees, and -1 for one that always disagrees on balanced labels', () => {
    const humans = [true, false, true, false, true, false];
    expect(agreementStats(humans.map((h) => ({ judge: h, human: h })))).toMatchObject({ agreement: 1, kappa: 1 });
    expect(agreementStats(humans.map((h) => ({ judge: !h, human: h })))).toMatchObject({ agreement: 0, kappa: -1 });
  });

  it('leaves kappa undefined when both raters give one label throughout, and everything undefined with no pairs', () => {
    expect(agreementStats([{ judge: true, human: true }, { judge: true, human: true }])).toMatchObject({ agreement: 1, kappa: null });
    expect(agreementStats([])).toMatchObject({ n: 0, agreement: null, kappa: null });
  });
});
