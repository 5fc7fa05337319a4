/**
 * Context compaction (SPEC.md §11.5): over the threshold, older tool results outside the last N
 * messages that are longer than the minimum are replaced by a short summary and marked, so they are
 * never summarised twice. The system prompt and the latest messages are never touched, and every
 * tool call keeps its result block (only the result's content changes).
 */
import { pyJson, type FloatKeys } from '../pyjson';
import { pyLen, pySlice } from '../text';
import type { Message, ToolResultBlock } from '../types';
import { COMPACTION_MIN_RESULT_CHARS, COMPACTION_SUMMARY_HEAD_CHARS } from '../tunables';

export interface CompactionOutcome {
  messages: Message[];
  summarised: number;
}

export function compactMessages(
  messages: readonly Message[],
  keepMessages: number,
  floatKeys?: FloatKeys,
): CompactionOutcome {
  const cutoff = Math.max(0, messages.length - keepMessages);
  const names = new Map<string, string>();
  for (const m of messages) for (const b of m.content) if ('toolUse' in b) names.set(b.toolUse.toolUseId, b.toolUse.name);

  let summarised = 0;
  const out = messages.map((m, i) => {
    if (i >= cutoff) return m;
    let changed = false;
    const content = m.content.map((b) => {
      if (!('toolResult' in b) || b.toolResult._compacted) return b;
      const first = b.toolResult.content[0];
      const raw = first === undefined ? '' : 'json' in first ? first.json : first.text;
      if (pyJson(raw, { floatKeys }).length <= COMPACTION_MIN_RESULT_CHARS) return b;
      const text = pyJson(raw, { ensureAscii: false, floatKeys });
      const name = names.get(b.toolResult.toolUseId) ?? 'tool';
      const summary = `[compacted ${name} result: ${pySlice(text, COMPACTION_SUMMARY_HEAD_CHARS)}... (${pyLen(text)} chars total)]`;
      changed = true;
      summarised++;
      const block: ToolResultBlock = {
        toolResult: {
          toolUseId: b.toolResult.toolUseId,
          content: [{ text: summary }],
          status: b.toolResult.status,
          _compacted: true,
        },
      };
      return block;
    });
    return changed ? { role: m.role, content } : m;
  });
  return { messages: out, summarised };
}
