import { describe, expect, it } from 'vitest';
import { answerColumns, answerDiff, relatedAnswers } from './answer-diff';

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

describe('answerColumns', () => {
  it('gives each answer its own column that reads as that answer, with only its own extra words marked', () => {
    const a = 'SKU-2027 (ratchet straps) has 230 units in stock in aisle B4.';
    const b = 'I could not find that product; try searching by name.';
    const cols = answerColumns(a, b);
    expect(cols.a.map((p) => p.text).join('')).toBe(a);
    expect(cols.b.map((p) => p.text).join('')).toBe(b);
    expect(cols.a.some((p) => p.kind === 'only_b')).toBe(false);
    expect(cols.b.some((p) => p.kind === 'only_a')).toBe(false);
  });
});

describe('relatedAnswers', () => {
  it('calls two answers that share only "I", "(" and "of" unrelated', () => {
    const a = 'SKU-2027 (ratchet straps) has 230 units in stock in aisle B4 of the east wing.';
    const b = 'I could not create the restock request (rejected): quantities of more than 4,000 units are refused.';
    expect(answerColumns(a, b).related).toBe(false);
  });

  it('keeps a word-by-word diff for answers that differ in a figure', () => {
    expect(answerColumns('SKU-2027 has 230 units in stock.', 'SKU-2027 has 12 units in stock.').related).toBe(true);
    expect(relatedAnswers(answerDiff('same answer', 'same answer'))).toBe(true);
  });
});
