/**
 * What the model saw, shaped for display: every message block becomes a typed item whose text is
 * shown as text (never HTML), with compaction summaries and quarantine markers flagged so the
 * replay can explain them.
 */
import { QUARANTINE_MARKER } from '../harness/browser';

export type MessageItem =
  | { kind: 'text'; role: string; text: string }
  | { kind: 'tool_use'; role: string; toolUseId: string; name: string; input: string }
  | {
      kind: 'tool_result';
      role: string;
      toolUseId: string;
      status: string;
      text: string;
      /** The harness replaced this result with a summary to stay under the context threshold. */
      compacted: boolean;
      /** Paragraphs the harness replaced with the quarantine marker. */
      quarantined: number;
    }
  | { kind: 'unknown'; role: string; text: string };

/** A compaction summary as lib/harness/loop/compaction.ts writes it. */
const COMPACTED = /^\[compacted [^\]]* result: [\s\S]*\(\d+ chars total\)\]$/;

const asRecord = (v: unknown): Record<string, unknown> | null =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;

/** Pretty JSON for display; strings stay as they are. */
export function displayJson(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}

function countOccurrences(haystack: string, needle: string): number {
  let n = 0;
  for (let i = haystack.indexOf(needle); i !== -1; i = haystack.indexOf(needle, i + needle.length)) n++;
  return n;
}

function resultItem(role: string, block: Record<string, unknown>): MessageItem {
  const parts = Array.isArray(block.content) ? block.content : [];
  const texts = parts.map((p) => {
    const part = asRecord(p);
    if (part && typeof part.text === 'string') return part.text;
    if (part && 'json' in part) return displayJson(part.json);
    return displayJson(p);
  });
  const text = texts.join('\n');
  return {
    kind: 'tool_result',
    role,
    toolUseId: String(block.toolUseId ?? ''),
    status: String(block.status ?? ''),
    text,
    compacted: texts.length === 1 && COMPACTED.test(texts[0] ?? ''),
    // Marker text inside JSON is escaped the same way, so counting in the display text is exact.
    quarantined: countOccurrences(text, QUARANTINE_MARKER),
  };
}

/** Flattens Converse-shaped messages into display items, in order. */
export function messageItems(messages: readonly unknown[]): MessageItem[] {
  const out: MessageItem[] = [];
  for (const m of messages) {
    const msg = asRecord(m);
    const role = typeof msg?.role === 'string' ? msg.role : 'unknown';
    const content = Array.isArray(msg?.content) ? msg.content : [];
    if (!msg || content.length === 0) {
      out.push({ kind: 'unknown', role, text: displayJson(m) });
      continue;
    }
    for (const b of content) {
      const block = asRecord(b);
      if (block && typeof block.text === 'string') out.push({ kind: 'text', role, text: block.text });
      else if (block && asRecord(block.toolUse)) {
        const use = asRecord(block.toolUse)!;
        out.push({ kind: 'tool_use', role, toolUseId: String(use.toolUseId ?? ''), name: String(use.name ?? ''), input: displayJson(use.input) });
      } else if (block && asRecord(block.toolResult)) out.push(resultItem(role, asRecord(block.toolResult)!));
      else out.push({ kind: 'unknown', role, text: displayJson(b) });
    }
  }
  return out;
}
