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

  it('gives kappa a 95% interval: 20/5/10/15 of 50 is kappa 0.4 in [0.146, 0.654]', () => {
    // p_o = 35/50 = 0.7; judge pass 25/50, human pass 30/50 → p_e = 0.5·0.6 + 0.5·0.4 = 0.5; kappa = 0.4;
    // SE = sqrt(0.7·0.3 / (50·0.25)) = sqrt(0.0168) = 0.129615; ±1.959964·SE = ±0.254041.
    const pairs = [
      ...Array.from({ length: 20 }, () => ({ judge: true, human: true })),
      ...Array.from({ length: 5 }, () => ({ judge: true, human: false })),
      ...Array.from({ length: 10 }, () => ({ judge: false, human: true })),
      ...Array.from({ length: 15 }, () => ({ judge: false, human: false })),
    ];
    const s = agreementStats(pairs);
    expect(s.kappa).toBe(0.4);
    expect(s.kappaInterval).toMatchObject({ low: 0.146, high: 0.654 });
    expect(s.kappaInterval!.method).toContain('Cohen 1960');
  });

  it('clips the interval to [−1, 1] and has none when kappa is undefined', () => {
    expect(agreementStats([{ judge: true, human: true }, { judge: false, human: false }]).kappaInterval).toMatchObject({ low: 1, high: 1 });
    expect(agreementStats([{ judge: true, human: true }]).kappaInterval).toBeNull();
  });
});
