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
export function answerColumns(a: string, b: string): { a: AnswerDiffPart[]; b: AnswerDiffPart[]; related: boolean } {
  const parts = answerDiff(a, b);
  return { a: parts.filter((p) => p.kind !== 'only_b'), b: parts.filter((p) => p.kind !== 'only_a'), related: relatedAnswers(parts) };
}

/**
 * Below this share of the longer answer's letters and digits in common, two answers are unrelated: a
 * word-by-word diff would only match "I", "(" and "of" (issue 43), so each is shown whole instead.
 */
export const RELATED_SHARE = 0.3;

const meaningful = (text: string) => (text.match(/[\p{L}\p{N}]/gu) ?? []).length;

/** Whether the answers share enough words in place for a word-by-word diff to say something. */
export function relatedAnswers(parts: readonly AnswerDiffPart[]): boolean {
  // Only shared words of three or more letters count: "I", "of" and punctuation line up between any two answers.
  const shared = parts.filter((p) => p.kind === 'same').reduce((n, p) => n + p.text.split(/\s+/).filter((w) => meaningful(w) >= 3).reduce((m, w) => m + meaningful(w), 0), 0);
  const a = parts.filter((p) => p.kind !== 'only_b').reduce((n, p) => n + meaningful(p.text), 0);
  const b = parts.filter((p) => p.kind !== 'only_a').reduce((n, p) => n + meaningful(p.text), 0);
  const longer = Math.max(a, b);
  return longer === 0 || shared / longer >= RELATED_SHARE;
}
