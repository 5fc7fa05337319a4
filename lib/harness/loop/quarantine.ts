/**
 * Quarantine of instruction-like text in tool output (SPEC.md §11.8a). Tool results are data, not
 * instructions: a paragraph that reads like an instruction to the assistant is replaced by a
 * marker before the model sees it, and the removed text is kept for inspection.
 */
import type { JsonValue } from '../json';
import { INJECTION_LINE } from '../model/fake/vocabulary';
import { splitLines } from '../text';
import { QUARANTINE_MARKER } from '../tunables';

export interface QuarantineResult {
  content: JsonValue;
  /** Lines removed (Python `splitlines` count of each removed paragraph). */
  removedLines: number;
  /** The removed paragraphs, verbatim. */
  removed: string[];
}

const PARAGRAPH_BREAK = /\n\s*\n/;

function sanitizeString(s: string, removed: string[]): { text: string; lines: number } {
  if (!s.includes('\n') && !INJECTION_LINE.test(s)) return { text: s, lines: 0 };
  let lines = 0;
  const paragraphs = s.split(PARAGRAPH_BREAK).map((p) => {
    if (!INJECTION_LINE.test(p)) return p;
    lines += splitLines(p).length;
    removed.push(p);
    return QUARANTINE_MARKER;
  });
  return { text: paragraphs.join('\n\n'), lines };
}

/** Returns a sanitised copy of a tool result; the input is not modified. */
export function quarantine(content: JsonValue): QuarantineResult {
  const removed: string[] = [];
  let removedLines = 0;
  const walk = (v: JsonValue): JsonValue => {
    if (typeof v === 'string') {
      const r = sanitizeString(v, removed);
      removedLines += r.lines;
      return r.text;
    }
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === 'object') {
      const out: { [k: string]: JsonValue } = {};
      for (const [k, val] of Object.entries(v)) out[k] = walk(val);
      return out;
    }
    return v;
  };
  const clean = walk(content);
  return { content: clean, removedLines, removed };
}
