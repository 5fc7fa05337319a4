import { describe, expect, it } from 'vitest';
import { figureText, itemDisagrees, kappaText, whenText } from './judge-view';

describe("the judge page's figures", () => {
  it('shows a missing agreement as a dash and an undefined kappa in words', () => {
    expect(figureText(null)).toBe('—');
    expect(figureText(0.85)).toBe('0.85');
    expect(kappaText(null)).toBe('undefined');
    expect(kappaText(0.4)).toBe('0.4');
  });

  it('shows a calibration time to the second', () => {
    expect(whenText('2026-12-06T23:50:11.123Z')).toBe('2026-12-06 23:50:11');
  });

  it('marks an item where the judge and the label differ, not one the judge left unscored', () => {
    expect(itemDisagrees({ verdict: 'fail', human: 'pass' })).toBe(true);
    expect(itemDisagrees({ verdict: 'pass', human: 'pass' })).toBe(false);
    expect(itemDisagrees({ verdict: null, human: 'pass' })).toBe(false);
  });
});
