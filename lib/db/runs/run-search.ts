/**
 * The searchable text of a run and where a match sits in it (pure; no database access).
 *
 * A run's search body is its sections joined by RECORD_SEP, each `<code>UNIT_SEP<text>`: `Q` the
 * question, `A` the final answer, `C:<tool>` a call's arguments and `R:<tool>` its result (JSON, as
 * stored), each distinct section once, in order of first appearance. The migration that created RunSearch backfills older runs in the same layout with SQL.
 * The separators are control characters no search text can contain, so a match never spans two
 * sections. A tool's name is searchable (it is in its sections' codes): searching `restock` finds the
 * runs that called it.
 */
import type { RunResult } from '../../harness';

const RECORD_SEP = '\u001e';
const UNIT_SEP = '\u001f';
/** Characters of a run's search body kept (a longer body is cut): bounds the index per run. */
export const MAX_SEARCH_CHARS = 200_000;
/** Longest search text accepted (the runs page's box allows the same). */
export const MAX_SEARCH_TEXT = 200;
/** Shortest search text: a trigram, the least the indexes can look up. */
export const MIN_SEARCH_TEXT = 3;
/** Characters of context either side of a match in a snippet. */
const SNIPPET_CONTEXT = 60;

const SEPARATORS = /[\u001e\u001f]/g;
const clean = (text: string) => text.replace(SEPARATORS, ' ');

/** The search body of a run: question, final answer, and every tool call's arguments and result. */
export function searchBody(run: Pick<RunResult, 'query' | 'finalAnswer' | 'trajectory'>): string {
  const sections = [`Q${UNIT_SEP}${clean(run.query)}`, `A${UNIT_SEP}${clean(run.finalAnswer)}`];
  // A call repeated with the same arguments, or a payload returned again, is indexed once: search
  // and snippets gain nothing from the copy, and indexing it is most of a long run's write cost.
  const seen = new Set<string>();
  const add = (section: string) => {
    if (seen.has(section)) return;
    seen.add(section);
    sections.push(section);
  };
  for (const step of run.trajectory) {
    if (step.kind !== 'tool_call') continue;
    // JSON.stringify escapes control characters, so arguments and results hold no separator.
    add(`C:${step.name}${UNIT_SEP}${JSON.stringify(step.arguments)}`);
    add(`R:${step.name}${UNIT_SEP}${JSON.stringify(step.resultContent)}`);
  }
  return sections.join(RECORD_SEP).slice(0, MAX_SEARCH_CHARS);
}

/** The search text as matched: trimmed, separators removed. Empty means "no text filter". */
export function normaliseSearchText(text: string | undefined): string {
  return clean(text ?? '').trim();
}

/**
 * An FTS5 MATCH expression finding `text` as one literal substring: a double-quoted string, inner
 * quotes doubled, so user input (AND, OR, NEAR, *, :, ^, parentheses) is never query syntax.
 */
export function ftsPhrase(text: string): string {
  return `"${text.replaceAll('"', '""')}"`;
}

/**
 * A LIKE pattern matching `text` anywhere, for `ESCAPE '!'` (`!` escapes %, _ and itself; a backslash
 * would need different quoting on each provider).
 */
export function likePattern(text: string): string {
  return `%${text.replace(/[!%_]/g, (c) => `!${c}`)}%`;
}

/** Where a search text matched in a run, with the text around it. */
export interface RunTextMatch {
  /** `question`, `answer`, `tool arguments`, `tool result`, or `tool call` (the tool's name). */
  field: 'question' | 'answer' | 'tool arguments' | 'tool result' | 'tool call';
  /** The tool, for arguments and results. */
  tool: string | null;
  before: string;
  match: string;
  after: string;
}

function fieldOf(code: string): Pick<RunTextMatch, 'field' | 'tool'> {
  if (code === 'Q') return { field: 'question', tool: null };
  if (code === 'A') return { field: 'answer', tool: null };
  return { field: code.startsWith('C:') ? 'tool arguments' : 'tool result', tool: code.slice(2) };
}

/** The first section of `body` containing `text` (case-insensitively), as a snippet; null if none. */
export function findMatch(body: string, text: string): RunTextMatch | null {
  const needle = normaliseSearchText(text).toLowerCase();
  if (!needle) return null;
  for (const section of body.split(RECORD_SEP)) {
    const sep = section.indexOf(UNIT_SEP);
    if (sep < 0) continue;
    const content = section.slice(sep + 1);
    const code = section.slice(0, sep);
    const at = content.toLowerCase().indexOf(needle);
    if (at < 0) {
      const tool = fieldOf(code).tool;
      if (tool?.toLowerCase().includes(needle)) return { field: 'tool call', tool, before: '', match: tool, after: '' };
      continue;
    }
    const end = at + needle.length;
    const from = Math.max(0, at - SNIPPET_CONTEXT);
    const to = Math.min(content.length, end + SNIPPET_CONTEXT);
    return {
      ...fieldOf(code),
      before: (from > 0 ? '…' : '') + content.slice(from, at),
      match: content.slice(at, end),
      after: content.slice(end, to) + (to < content.length ? '…' : ''),
    };
  }
  return null;
}
