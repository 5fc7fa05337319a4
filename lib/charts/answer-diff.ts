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
