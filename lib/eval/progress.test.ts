import { describe, expect, it } from 'vitest';
import { formatProgress } from './progress';

describe('formatProgress', () => {
  it('fills the bar in proportion and pads the count', () => {
    expect(formatProgress(5, 50, 'G005', 10)).toBe('[#---------]  5/50 G005');
    expect(formatProgress(50, 50, 'G050', 10)).toBe('[##########] 50/50 G050');
    expect(formatProgress(0, 0, '', 4)).toBe('[####] 0/0 ');
  });
});
