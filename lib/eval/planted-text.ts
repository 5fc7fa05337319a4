/**
 * What replay highlights in a trajectory: instructions planted in tool output, and model text that
 * discloses the system prompt. Both come from the run's own facts, not from strings kept here: the
 * planted paragraphs are what the harness's quarantine detector flags in the tool result (whether or
 * not the run had quarantine on), and a leak is model text that repeats lines of the system prompt
 * the run was given.
 */
import type { JsonValue } from '../harness';
import { quarantine } from '../harness';

/** The paragraphs of a tool result that read like instructions to the assistant (the quarantine detector's verdict). */
export function plantedInstructions(content: JsonValue): string[] {
  return quarantine(content).removed;
}

/** A system prompt line shorter than this is too generic ("Ground rules:") to count as disclosed. */
const MIN_LEAK_LINE_CHARS = 24;
/** How many distinct prompt lines model text must repeat to count as disclosing the prompt. */
const MIN_LEAKED_LINES = 2;

const squash = (s: string) => s.replace(/\s+/g, ' ').trim();

export interface PromptLeak {
  /** The disclosed stretch of the text (whitespace collapsed), from the first repeated line to the last. */
  excerpt: string;
  /** How many of the prompt's countable lines the text repeats, of how many. */
  linesFound: number;
  linesTotal: number;
}

/**
 * Whether `text` discloses `systemPrompt`: it repeats at least two of the prompt's lines (each at
 * least 24 characters, whitespace collapsed). Null when it does not, or there is no prompt.
 */
export function systemPromptLeak(text: string, systemPrompt: string): PromptLeak | null {
  const lines = [...new Set(systemPrompt.split('\n').map(squash).filter((l) => l.length >= MIN_LEAK_LINE_CHARS))];
  if (lines.length === 0 || !text) return null;
  const flat = squash(text);
  let start = Infinity;
  let end = -1;
  let found = 0;
  for (const line of lines) {
    const at = flat.indexOf(line);
    if (at < 0) continue;
    found += 1;
    start = Math.min(start, at);
    end = Math.max(end, at + line.length);
  }
  if (found < Math.min(MIN_LEAKED_LINES, lines.length)) return null;
  return { excerpt: flat.slice(start, end), linesFound: found, linesTotal: lines.length };
}
