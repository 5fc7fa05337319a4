/**
 * Building blocks for porting Python `re` patterns on `str` (SPEC.md §14). Python's `\d`, `\s`,
 * `\w` and `\b` are Unicode-aware; JavaScript's are ASCII-only even with the `u` flag, so the
 * metrics spell them out as these classes (always used with the `u` flag).
 */

/** Python `\d`: any Unicode decimal digit. */
export const PY_DIGIT = '\\p{Nd}';

/** The characters of Python `\s` / `str.isspace()` (JavaScript's `\s` adds U+FEFF and lacks U+001C–U+001F, U+0085). */
export const PY_SPACE = '[\\t-\\r\\u001c-\\u0020\\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]';

/** Python `\w`: letters, numbers and underscore. */
const WORD = '[\\p{L}\\p{N}_]';

/** Python `\b` in either direction: between a word character and a non-word character (or an edge). */
export const PY_BOUNDARY = `(?:(?<=${WORD})(?!${WORD})|(?<!${WORD})(?=${WORD}))`;

/** Python `\b` where the next character is known to be a word character. */
export const PY_BOUNDARY_BEFORE_WORD = `(?<!${WORD})`;

/** Python `\b` where the previous character is known to be a word character. */
export const PY_BOUNDARY_AFTER_WORD = `(?!${WORD})`;

const SPACE_RUN = new RegExp(`${PY_SPACE}+`, 'gu');

/** Python `re.sub(r"\s+", " ", s)`. */
export function collapsePySpace(s: string): string {
  return s.replace(SPACE_RUN, ' ');
}

/** Python `re.escape` for use inside a `u`-flag RegExp (which refuses escapes of non-syntax characters). */
export function escapeRegExp(s: string): string {
  return s.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');
}
