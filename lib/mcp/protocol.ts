/**
 * What our MCP server and executor agree on beyond the MCP specification itself: the hidden reset
 * tool, the `_meta` keys, and how a tool's JSON value travels inside a CallToolResult.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { JsonObject, JsonValue } from '../harness/json';
import { isJsonObject } from '../harness/json';

/** Server identity sent in the initialize handshake. */
export const STOCKROOM_SERVER_INFO = { name: 'stockroom-inventory', version: '1.0.0' } as const;

/** Resets the restock ledger and the legacy shard; called by the executor at the start of every run. */
export const RESET_TOOL_NAME = 'reset_session_state';

/** `_meta` key marking a tool that clients should not show a model. */
export const HIDDEN_META_KEY = 'stockroom.dev/hidden';

/** `_meta` key of a tools/call request carrying the harness's operation key (idempotent writes). */
export const OPERATION_KEY_META_KEY = 'stockroom.dev/operation-key';

/**
 * Encodes a tool's JSON value as a CallToolResult: the JSON text for clients that read text, and the
 * same value as structured content. Structured content must be an object, so any other value is
 * wrapped as `{"result": …}` (the convention the executor unwraps).
 */
export function encodeToolValue(value: JsonValue, isError: boolean): CallToolResult {
  const structuredContent: JsonObject = isJsonObject(value) ? value : { result: value };
  return {
    content: [{ type: 'text', text: JSON.stringify(value) }],
    structuredContent,
    ...(isError ? { isError: true } : {}),
  };
}
