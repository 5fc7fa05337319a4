/**
 * Paired deltas against `none` with worked values: McNemar's exact p from the discordant pairs,
 * Holm's correction across cells, the sign test with epochs, the exact permutation test for means,
 * and exact zero-width deltas for the deterministic model.
 */
import { describe, expect, it } from 'vitest';
import { pairedDeltas } from './paired-deltas';
import { point } from './testing/run-points';

const ids = Array.from({ length: 10 }, (_, i) => `C${i}`);

describe('paired deltas', () => {
  // none: C0..C8 terminate as expected, C9 does not. worse: C9 now does, C0..C6 no longer do.
  const none = ids.map((id, i) => point(id, { terminationMatch: i !== 9 }));
  const worse = ids.map((id, i) => point(id, { terminationMatch: i === 9 || i >= 7 }));
  // much_worse: all ten fail → 9 discordant the same way (C9 failed under none too).
  const muchWorse = ids.map((id) => point(id, { terminationMatch: false }));

  it("tests one epoch's pass/fail with McNemar: 1 against 7 discordant pairs gives p = 18/256", () => {
    const d = pairedDeltas({ none, worse }, 'none', { epochs: 1, deterministic: false, metrics: ['termination_match_rate'] });
    const cell = d.worse!.termination_match_rate!;
    // 3 of 10 pass against 9 of 10: −0.6.
    expect(cell).toMatchObject({ delta: -0.6, test: 'mcnemar_exact', p: 0.0703, p_adjusted: 0.0703, pairs: 10, verdict: 'indistinguishable' });
    expect(cell.low).toBeLessThan(cell.delta);
    expect(cell.high).toBeGreaterThan(cell.delta);
  });

  it("corrects across cells with Holm: 0.0703 and 2/512 → 0.0703 and 0.0078, so only the second is called lower", () => {
    // much_worse: 9 discordant (0 against 9) → p = 2/512 = 0.003906; Holm: 0.003906·2 = 0.0078, max(0.0078, 0.0703) = 0.0703.
    const d = pairedDeltas({ none, worse, much_worse: muchWorse }, 'none', { epochs: 1, deterministic: false, metrics: ['termination_match_rate'] });
    expect(d.much_worse!.termination_match_rate).toMatchObject({ p: 0.0039, p_adjusted: 0.0078, verdict: 'lower' });
    expect(d.worse!.termination_match_rate).toMatchObject({ p: 0.0703, p_adjusted: 0.0703, verdict: 'indistinguishable' });
  });

  it('says unchanged (not "not distinguishable") when every case gave the same value', () => {
    const d = pairedDeltas({ none, same: none }, 'none', { epochs: 1, deterministic: false, metrics: ['termination_match_rate'] });
    expect(d.same!.termination_match_rate).toMatchObject({ delta: 0, low: 0, high: 0, verdict: 'unchanged', p: 1, epochs_for_80_power: null });
  });

  it('uses the exact permutation test for a mean: token differences 10, 20, 30 give p = 2/8', () => {
    const base = ['A', 'B', 'C'].map((id) => point(id, { inputTokens: 1000 }));
    const more = ['A', 'B', 'C'].map((id, i) => point(id, { inputTokens: 1000 + 10 * (i + 1) }));
    const d = pairedDeltas({ none: base, more }, 'none', { epochs: 1, deterministic: false, metrics: ['mean_input_tokens'] });
    expect(d.more!.mean_input_tokens).toMatchObject({ delta: 20, test: 'permutation', p: 0.25, verdict: 'indistinguishable' });
  });

  it('uses the sign test on case means with epochs: 10 of 10 cases lower gives p = 2/1024', () => {
    const base = ids.flatMap((id) => [0, 1].map(() => point(id)));
    const lower = ids.flatMap((id) => [0, 1].map((e) => point(id, { terminationMatch: e === 0 })));
    const d = pairedDeltas({ none: base, lower }, 'none', { epochs: 2, deterministic: false, metrics: ['termination_match_rate'] });
    expect(d.lower!.termination_match_rate).toMatchObject({ delta: -0.5, test: 'sign', p: 0.002, verdict: 'lower' });
  });

  it("gives the deterministic model exact deltas: zero width, no test, the direction as it is", () => {
    const d = pairedDeltas({ none, worse }, 'none', { epochs: 1, deterministic: true, metrics: ['termination_match_rate'] });
    expect(d.worse!.termination_match_rate).toEqual({
      delta: -0.6, low: -0.6, high: -0.6, pairs: 10, test: 'none_deterministic', p: null, p_adjusted: null, verdict: 'lower', epochs_for_80_power: null,
    });
  });

  it('pairs only cases present under both settings', () => {
    const d = pairedDeltas({ none, part: none.slice(0, 4) }, 'none', { epochs: 1, deterministic: false, metrics: ['termination_match_rate'] });
    expect(d.part!.termination_match_rate!.pairs).toBe(4);
  });
});
