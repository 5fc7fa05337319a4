/**
 * history(messages): pairs each tool result with the call that asked for it (SPEC.md §10.6).
 * The planner re-derives everything from this on every turn.
 */
import { isJsonObject, safeJsonParse, type JsonValue } from '../../json';
import { pyJson, type FloatKeys } from '../../pyjson';
import type { Message, ToolResultContentPart } from '../../types';

export interface HistoryItem {
  name: string;
  arguments: JsonValue;
  result: JsonValue;
  /** The result as text (Python-JSON with ensure_ascii off for json parts); computed on first read. */
  readonly text: string;
  isError: boolean;
  errorCode: string | null;
}

/** The text of a result's parts, serialised only when something reads it (few items ever are). */
function lazyText(parts: readonly ToolResultContentPart[], floatKeys: FloatKeys | undefined): () => string {
  let text: string | undefined;
  return () => {
    if (text === undefined) {
      text = '';
      for (const part of parts) text += 'json' in part ? pyJson(part.json, { ensureAscii: false, floatKeys }) : part.text;
    }
    return text;
  };
}

export function history(messages: readonly Message[], floatKeys?: FloatKeys): HistoryItem[] {
  const pending = new Map<string, { name: string; input: JsonValue }>();
  const items: HistoryItem[] = [];
  for (const message of messages) {
    for (const block of message.content) {
      if ('toolUse' in block) {
        pending.set(block.toolUse.toolUseId, { name: block.toolUse.name, input: block.toolUse.input });
      } else if ('toolResult' in block) {
        const id = block.toolResult.toolUseId;
        const call = pending.get(id);
        pending.delete(id);
        let result: JsonValue = null;
        for (const part of block.toolResult.content) {
          if ('json' in part) {
            result = part.json;
          } else if ('text' in part) {
            if (result === null) {
              const parsed = safeJsonParse(part.text);
              result = parsed.ok ? parsed.value : part.text;
            }
          }
        }
        let isError = block.toolResult.status === 'error';
        let errorCode: string | null = null;
        if (isJsonObject(result) && 'error' in result) {
          errorCode = String(result.error);
          isError = true;
        }
        const text = lazyText(block.toolResult.content, floatKeys);
        items.push({
          name: call?.name ?? '?',
          arguments: call?.input ?? null,
          result,
          get text() {
            return text();
          },
          isError,
          errorCode,
        });
      }
    }
  }
  return items;
}

/** The user's query: the first text block of the first user message. */
export function userQuery(messages: readonly Message[]): string {
  for (const message of messages) {
    if (message.role !== 'user') continue;
    for (const block of message.content) if ('text' in block) return block.text;
    break;
  }
  return '';
}
