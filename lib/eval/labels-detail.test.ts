import { describe, expect, it } from 'vitest';
import { losesDetail } from './labels';

describe('losesDetail', () => {
  const rich = { category: 'wrong_arguments', score: null, comment: 'asked for the wrong order' };
  it('is true when a bare label would drop a category or a comment', () => {
    expect(losesDetail(rich, { category: null, score: null, comment: '' })).toBe(true);
    expect(losesDetail({ category: null, score: 0.5, comment: '' }, { category: null, score: null, comment: '' })).toBe(true);
  });
  it('is false with nothing to lose, or when the new label carries as much', () => {
    expect(losesDetail(null, { category: null, score: null, comment: '' })).toBe(false);
    expect(losesDetail({ category: null, score: null, comment: ' ' }, { category: null, score: null, comment: '' })).toBe(false);
    expect(losesDetail(rich, { category: 'other', score: null, comment: 'new note' })).toBe(false);
  });
});
