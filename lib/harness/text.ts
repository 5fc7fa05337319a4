/**
 * Text utilities shared by the planner, the tools, retrieval and the metrics (SPEC.md §4, §14).
 * They follow Python semantics where the reference harness relied on them.
 */
import { pyFloatRepr } from './pyjson';

const TOKEN = /[a-z0-9]+(?:[.,][0-9]+)?/g;

/** Lower-cases and splits into word tokens; decimals and thousands groups stay one token. */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  for (const match of text.toLowerCase().matchAll(TOKEN)) {
    const token = match[0].replace(/^[.,]+|[.,]+$/g, '');
    if (token) out.push(token);
  }
  return out;
}

/** The 93 stopwords of SPEC.md §4.2. */
export const STOPWORDS: ReadonlySet<string> = new Set(
  (
    'a an the and or of to in on for is are was were be been it its this that these those with ' +
    'by as at from do does did you your we our i me my can could would should will what which who ' +
    'when where why how much many there here any some all please give tell about into than then ' +
    'so if not no yes also just only more most other after before during out up down over under ' +
    'again further once has have had having am being without within'
  ).split(' '),
);

/** Tokens with stopwords removed (order and duplicates kept). */
export function contentTokens(text: string): string[] {
  return tokenize(text).filter((t) => !STOPWORDS.has(t));
}

const SURROGATE = /[\uD800-\uDFFF]/;

/** Python `len(str)`: code points, not UTF-16 units. */
export function pyLen(s: string): number {
  if (!SURROGATE.test(s)) return s.length;
  let n = 0;
  for (const _ of s) n++;
  return n;
}

/** Python `s[:n]` by code points. */
export function pySlice(s: string, n: number): string {
  if (!SURROGATE.test(s)) return s.slice(0, n);
  return Array.from(s).slice(0, n).join('');
}

const LINE_BREAK = /\r\n|[\n\r\u000b\u000c\u001c\u001d\u001e\u0085\u2028\u2029]/;

/** Python `str.splitlines()` (no trailing empty element; `""` gives `[]`). */
export function splitLines(s: string): string[] {
  if (s === '') return [];
  const lines = s.split(LINE_BREAK);
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

// Python's str.isspace() set: JavaScript's \s also holds U+FEFF and lacks U+001C-U+001F and U+0085.
const PY_STRIP_EDGES =
  /^[\t-\r\u001c-\u0020\u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+|[\t-\r\u001c-\u0020\u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+$/g;

/** Python `str.strip()` with no argument. */
export function pyStrip(s: string): string {
  return s.replace(PY_STRIP_EDGES, '');
}

/** Collapses every whitespace run to one space. */
export function collapseWhitespace(s: string): string {
  return s.replace(/\s+/g, ' ');
}

function reprString(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of s) {
    const code = ch.codePointAt(0) as number;
    if (ch === '\\') out += '\\\\';
    else if (ch === quote) out += '\\' + quote;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (code < 0x20 || code === 0x7f) out += '\\x' + code.toString(16).padStart(2, '0');
    else out += ch;
  }
  return out + quote;
}

/** Python `repr()` of a JSON value (strings single-quoted, `True`, `None`, dict/list reprs). */
export function pyRepr(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : pyFloatRepr(value);
  if (typeof value === 'string') return reprString(value);
  if (Array.isArray(value)) return '[' + value.map(pyRepr).join(', ') + ']';
  const obj = value as Record<string, unknown>;
  return '{' + Object.keys(obj).map((k) => `${reprString(k)}: ${pyRepr(obj[k])}`).join(', ') + '}';
}

/** Python `str()` of a JSON value: strings as they are, everything else as `repr`. */
export function pyStr(value: unknown): string {
  return typeof value === 'string' ? value : pyRepr(value);
}

/** Python's type name of a JSON value, for "must be a JSON object, got {type}" messages. */
export function pyTypeName(value: unknown): string {
  if (value === null || value === undefined) return 'NoneType';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'float';
  if (typeof value === 'string') return 'str';
  if (Array.isArray(value)) return 'list';
  return 'dict';
}
