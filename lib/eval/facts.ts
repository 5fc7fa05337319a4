/**
 * Fact matching shared by the deterministic answer check, the fake judge and faithfulness
 * (SPEC.md §12.6): `normalize`, `factPresent` and `extractKeyFacts`, ported from Python `re` with
 * Unicode-aware digit, space and word-boundary classes.
 */
import { pyLen, pyStrip } from '../harness';
import {
  collapsePySpace,
  escapeRegExp,
  PY_BOUNDARY,
  PY_BOUNDARY_AFTER_WORD,
  PY_BOUNDARY_BEFORE_WORD,
  PY_DIGIT,
  PY_SPACE,
} from './py-regex';
import { memoByText } from '../harness';

/**
 * Texts normalize remembers: answers and whole tool-output contexts (a 1,525-run matrix has about 500,
 * 0.5 kB on average), so a long-lived server holds a few MB at most.
 */
const NORMALIZED_TEXTS = 1024;

/** The judge's own number words (a different list from the planner's). */
const NUMBER_WORDS: Readonly<Record<string, string>> = {
  zero: '0',
  one: '1',
  two: '2',
  three: '3',
  four: '4',
  five: '5',
  six: '6',
  seven: '7',
  eight: '8',
  nine: '9',
  ten: '10',
  twelve: '12',
  fifteen: '15',
  twenty: '20',
  thirty: '30',
  forty: '40',
  fifty: '50',
  sixty: '60',
  ninety: '90',
  hundred: '100',
};

const THOUSANDS = new RegExp(`(${PY_DIGIT}),(${PY_DIGIT}{3})`, 'gu');
const NUMBER_WORD = new RegExp(
  `${PY_BOUNDARY_BEFORE_WORD}(${Object.keys(NUMBER_WORDS).join('|')})${PY_BOUNDARY_AFTER_WORD}`,
  'gu',
);

/**
 * Lower-cases, removes thousands commas (`1,250,000` → `1250,000`: non-overlapping, left to right,
 * as Python's `re.sub`), spells number words as digits, collapses whitespace and strips.
 */
export const normalize: (text: string) => string = memoByText((text) => {
  const lowered = text.toLowerCase().replace(THOUSANDS, '$1$2');
  const digits = lowered.replace(NUMBER_WORD, (word) => NUMBER_WORDS[word] ?? word);
  return pyStrip(collapsePySpace(digits));
}, NORMALIZED_TEXTS);

const DIGIT_CHAR = new RegExp(`^${PY_DIGIT}$`, 'u');
const isDigit = (ch: string | undefined): boolean => ch !== undefined && DIGIT_CHAR.test(ch);

/**
 * Whether `fact` appears in `answer` after normalising both. A fact that starts or ends with a
 * digit must not be glued to more digits (`42` is not in `420`, `3 units` is not in `13 units` or
 * `0.3 units`); other facts are plain substrings.
 */
export function factPresent(fact: string, answer: string): boolean {
  const needle = normalize(fact);
  if (needle === '') return false;
  const pattern = gluedDigitPattern(needle);
  return pattern ? pattern.test(normalize(answer)) : normalize(answer).includes(needle);
}

/** For a needle that starts or ends with a digit, the pattern that keeps it from being glued to more digits; null for a plain substring. */
const gluedDigitPattern = memoByText((needle: string): RegExp | null => {
  const chars = Array.from(needle);
  if (!isDigit(chars[0]) && !isDigit(chars[chars.length - 1])) return null;
  // Not global or sticky: test() keeps no lastIndex, so one pattern serves every answer.
  return new RegExp(`(?<![${PY_DIGIT}.])${escapeRegExp(needle)}(?!${PY_DIGIT})`, 'u');
});

const D = PY_DIGIT;
const NUMBER = `${D}[${D},]*(?:\\.${D}+)?`;
const KEY_FACT = new RegExp(
  [
    `SKU-${D}{4}`,
    `ORD-${D}{4}`,
    `RSR-${D}{4}`,
    `\\$${PY_SPACE}?${NUMBER}`,
    `${NUMBER}${PY_SPACE}?%`,
    `${D}{4}-${D}{2}-${D}{2}`,
    `${PY_BOUNDARY}${NUMBER}${PY_BOUNDARY}`,
    `${PY_BOUNDARY}(?:shipped|delivered|backordered|cancelled|processing|pending_approval|rejected|out of stock|urgent|standard|manager approval)${PY_BOUNDARY}`,
  ].join('|'),
  'giu',
);

/**
 * The key facts of a text, in order of appearance: ids, money, percentages, dates, numbers and
 * status words. Each is stripped; single-digit facts and repeats are dropped.
 */
export function extractKeyFacts(text: string): string[] {
  return [...keyFactsOf(text)];
}

const keyFactsOf = memoByText((text: string): readonly string[] => {
  const seen = new Set<string>();
  const facts: string[] = [];
  for (const match of text.matchAll(KEY_FACT)) {
    const fact = pyStrip(match[0]);
    if (pyLen(fact) === 1 && isDigit(fact)) continue;
    if (seen.has(fact)) continue;
    seen.add(fact);
    facts.push(fact);
  }
  return facts;
});
