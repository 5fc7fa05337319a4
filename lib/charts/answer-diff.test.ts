import { describe, expect, it } from 'vitest';
import { answerDiff } from './answer-diff';

describe('answerDiff', () => {
  it('marks the words only one answer has and keeps the shared words once, in order', () => {
    const parts = answerDiff('SKU-2027 has 230 units in stock.', 'SKU-2027 has 12 units in stock.');
    expect(parts.filter((p) => p.kind === 'only_a').map((p) => p.text.trim())).toEqual(['230']);
    expect(parts.filter((p) => p.kind === 'only_b').map((p) => p.text.trim())).toEqual(['12']);
    expect(parts.filter((p) => p.kind !== 'only_b').map((p) => p.text).join('')).toBe('SKU-2027 has 230 units in stock.');
    expect(parts.filter((p) => p.kind !== 'only_a').map((p) => p.text).join('')).toBe('SKU-2027 has 12 units in stock.');
  });

  it('is one shared part for identical answers', () => {
    expect(answerDiff('same answer', 'same answer')).toEqual([{ kind: 'same', text: 'same answer' }]);
  });
});
