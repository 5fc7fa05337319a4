/**
 * Turns a CallToolResult from any MCP server into the harness's ToolResult: structured content
 * first, else the text parsed as JSON (plain text stays a string), a bare `{"result": …}` unwrapped.
 * A result with images, audio, resource links or embedded resources reaches the model as text
 * with a line per part (content-parts.ts) — never as base64, never dropped — and keeps the whole
 * parts as `media` for the record. Error results become `{error, message}` like the local path's,
 * keeping the server's code when it sent one.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ToolResult } from '../../harness';
import { hasMedia, mediaParts, modelText } from './content-parts';
import { isJsonObject, safeJsonParse, type JsonValue } from '../../harness';
import { pyJson, type FloatKeys } from '../../harness';
import { pyLen } from '../../harness';

/** Code for an error result whose server sent no `{error, message}` object. */
export const GENERIC_TOOL_ERROR = 'tool_error';

function unwrap(value: JsonValue): JsonValue {
  if (isJsonObject(value)) {
    const keys = Object.keys(value);
    if (keys.length === 1 && keys[0] === 'result') return value.result as JsonValue;
  }
  return value;
}

function textOf(result: CallToolResult): string | null {
  const texts = result.content.flatMap((part) => (part.type === 'text' ? [part.text] : []));
  return texts.length > 0 ? texts.join('\n') : null;
}

function valueOf(result: CallToolResult): JsonValue {
  if (result.structuredContent !== undefined) return unwrap(result.structuredContent as JsonValue);
  // Other kinds of part: what the model can use of each, in order (payload sizes count this text).
  if (hasMedia(result)) return modelText(result);
  const text = textOf(result);
  if (text === null) return '';
  const parsed = safeJsonParse(text);
  return parsed.ok ? unwrap(parsed.value) : text;
}

/** Python-JSON length of a result, as the local path counts it (ensure_ascii only for errors). */
export function payloadChars(content: JsonValue, isError: boolean, floatKeys: FloatKeys): number {
  return pyLen(pyJson(content, { ensureAscii: isError, floatKeys }));
}

/** A CallToolResult as a ToolResult; `floatKeys` only affects the informational payload length. */
export function normaliseCallToolResult(result: CallToolResult, floatKeys: FloatKeys): ToolResult {
  const value = valueOf(result);
  const media = hasMedia(result) ? { media: mediaParts(result) } : {};
  if (result.isError !== true) {
    return { content: value, isError: false, errorCode: null, payloadChars: payloadChars(value, false, floatKeys), ...media };
  }
  const content: JsonValue =
    isJsonObject(value) && typeof value.error === 'string'
      ? value
      : { error: GENERIC_TOOL_ERROR, message: typeof value === 'string' ? value : JSON.stringify(value) };
  const errorCode = (content as { error: string }).error;
  return { content, isError: true, errorCode, payloadChars: payloadChars(content, true, floatKeys), ...media };
}
