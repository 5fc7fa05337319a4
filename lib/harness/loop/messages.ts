/** Building and sanitising the Converse-shaped conversation (SPEC.md §11.2). */
import { isJsonObject, type JsonValue } from '../json';
import { pyStr } from '../text';
import type { ContentBlock, Message, ToolCallRequest, ToolResultBlock, ToolResultContentPart } from '../types';

export function userMessage(text: string): Message {
  return { role: 'user', content: [{ text }] };
}

/** The assistant message for a turn, or null when it would be empty (it is then not appended). */
export function assistantMessage(text: string | null, calls: readonly ToolCallRequest[]): Message | null {
  const content: ContentBlock[] = [];
  if (text) content.push({ text });
  for (const c of calls) content.push({ toolUse: { toolUseId: c.toolUseId, name: c.name, input: c.arguments } });
  return content.length > 0 ? { role: 'assistant', content } : null;
}

export function toolResultBlock(toolUseId: string, content: JsonValue, isError: boolean): ToolResultBlock {
  const part: ToolResultContentPart =
    isJsonObject(content) || Array.isArray(content) ? { json: content } : { text: pyStr(content) };
  return { toolResult: { toolUseId, content: [part], status: isError ? 'error' : 'success' } };
}

/**
 * The messages a model may see: the private `_compacted` marker removed. Messages without a
 * marked block are passed through as the same objects (no copy, and their sizes stay memoised).
 */
export function stripPrivateKeys(messages: readonly Message[]): Message[] {
  return messages.map((m) => {
    if (!m.content.some((b) => 'toolResult' in b && b.toolResult._compacted)) return m;
    return {
      role: m.role,
      content: m.content.map((b) => {
        if (!('toolResult' in b) || !b.toolResult._compacted) return b;
        const { _compacted: _, ...rest } = b.toolResult;
        return { toolResult: rest };
      }),
    };
  });
}
