/**
 * Two final answers as one inline diff, word by word: the words only A said, the words only B
 * said, and the words they share, in reading order.
 */
import { diffWords } from 'diff';

export interface AnswerDiffPart {
  kind: 'same' | 'only_a' | 'only_b';
  text: string;
}

export function answerDiff(a: string, b: string): AnswerDiffPart[] {
  return diffWords(a, b).map((p) => ({ kind: p.removed ? 'only_a' : p.added ? 'only_b' : 'same', text: p.value }));
}

/**
 * The same diff as two columns, one per answer, each reading as that answer: A's text with the words
 * only A has marked, B's with the words only B has marked. Interleaving both in one paragraph was
 * unreadable once the answers differed in more than a word or two.
 */
export function answerColumns(a: string, b: string): { a: AnswerDiffPart[]; b: AnswerDiffPart[] } {
  const parts = answerDiff(a, b);
  return { a: parts.filter((p) => p.kind !== 'only_b'), b: parts.filter((p) => p.kind !== 'only_a') };
}
