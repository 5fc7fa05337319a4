/**
 * The inverse of the OpenAI adapter's mapping: a Chat Completions request back into the Converse
 * shape the fake model reads. Chat `tool` messages carry no success/error status; a result is an
 * error when it is a JSON object with an `error` key, which is how every harness and tool error
 * is written.
 */
import { isJsonObject, safeJsonParse, type JsonValue } from '../../harness';
import type { ContentBlock, Message, ToolResultContentPart, ToolSpec } from '../../harness';

export class ChatRequestError extends Error {}

type ChatMessage = { role?: unknown; content?: unknown; tool_calls?: unknown; tool_call_id?: unknown };

const text = (content: unknown): string =>
  typeof content === 'string'
    ? content
    : Array.isArray(content)
      ? content.map((p) => (isJsonObject(p) && typeof p.text === 'string' ? p.text : '')).join('')
      : '';

function toolResultPart(content: string): { part: ToolResultContentPart; isError: boolean } {
  const parsed = safeJsonParse(content);
  if (parsed.ok && (isJsonObject(parsed.value) || Array.isArray(parsed.value))) {
    return { part: { json: parsed.value }, isError: isJsonObject(parsed.value) && 'error' in parsed.value };
  }
  return { part: { text: content }, isError: false };
}

export function fromChatMessages(raw: unknown): { system: string; messages: Message[] } {
  if (!Array.isArray(raw)) throw new ChatRequestError('messages must be an array');
  let system = '';
  const messages: Message[] = [];
  const pushUser = (block: ContentBlock, merge: boolean) => {
    const last = messages[messages.length - 1];
    if (merge && last?.role === 'user' && !last.content.some((b) => !('toolResult' in b))) last.content.push(block);
    else messages.push({ role: 'user', content: [block] });
  };
  for (const m of raw as ChatMessage[]) {
    switch (m?.role) {
      case 'system':
      case 'developer':
        system += text(m.content);
        break;
      case 'user':
        pushUser({ text: text(m.content) }, false);
        break;
      case 'tool': {
        if (typeof m.tool_call_id !== 'string') throw new ChatRequestError('a tool message needs tool_call_id');
        const { part, isError } = toolResultPart(text(m.content));
        pushUser({ toolResult: { toolUseId: m.tool_call_id, content: [part], status: isError ? 'error' : 'success' } }, true);
        break;
      }
      case 'assistant': {
        const content: ContentBlock[] = [];
        const t = text(m.content);
        if (t) content.push({ text: t });
        for (const c of Array.isArray(m.tool_calls) ? m.tool_calls : []) {
          if (!isJsonObject(c) || !isJsonObject(c.function) || typeof c.id !== 'string' || typeof c.function.name !== 'string') {
            throw new ChatRequestError('a tool call needs id and function.name');
          }
          const args = typeof c.function.arguments === 'string' ? safeJsonParse(c.function.arguments) : { ok: false as const };
          content.push({ toolUse: { toolUseId: c.id, name: c.function.name, input: args.ok ? args.value : (c.function.arguments as JsonValue) } });
        }
        messages.push({ role: 'assistant', content });
        break;
      }
      default:
        throw new ChatRequestError(`unknown message role ${JSON.stringify(m?.role)}`);
    }
  }
  return { system, messages };
}

export function fromChatTools(raw: unknown): ToolSpec[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) throw new ChatRequestError('tools must be an array');
  return raw.map((t) => {
    if (!isJsonObject(t) || !isJsonObject(t.function) || typeof t.function.name !== 'string') throw new ChatRequestError('a tool needs function.name');
    return {
      name: t.function.name,
      description: typeof t.function.description === 'string' ? t.function.description : '',
      inputSchema: isJsonObject(t.function.parameters) ? t.function.parameters : {},
    };
  });
}
