/**
 * What our MCP server and executor agree on beyond the MCP specification itself: the hidden reset
 * tool, the `_meta` keys, and how a tool's JSON value travels inside a CallToolResult.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { JsonObject, JsonValue } from '../../harness';
import { isJsonObject } from '../../harness';

/** Server identity sent in the initialize handshake. */
export const STOCKROOM_SERVER_INFO = { name: 'stockroom-inventory', version: '1.0.0' } as const;

/** Resets the restock ledger and the legacy shard; called by the executor at the start of every run. */
export const RESET_TOOL_NAME = 'reset_session_state';

/** `_meta` key marking a tool that clients should not show a model. */
export const HIDDEN_META_KEY = 'stockroom.dev/hidden';

/** `_meta` key of a tools/call request carrying the harness's operation key (idempotent writes). */
export const OPERATION_KEY_META_KEY = 'stockroom.dev/operation-key';

/**
 * `_meta` key of a tools/call request carrying the id of the approval a reviewer gave for this call
 * (governed runs). Honoured only by the harness's own servers (which run behind its policy and
 * journal); servers for outside clients ignore it.
 */
export const APPROVAL_META_KEY = 'stockroom.dev/approval';

/**
 * Encodes a tool's JSON value as a CallToolResult: the JSON text for clients that read text, and the
 * same value as structured content (the text is that object's JSON); an error result is text only.
 * Structured content must be an object, so any other value is wrapped as `{"result": …}` (the
 * convention the executor unwraps).
 */
export function encodeToolValue(value: JsonValue, isError: boolean): CallToolResult {
  const structuredContent: JsonObject = isJsonObject(value) ? value : { result: value };
  // An error carries text only: clients validate structured content against the tool's output
  // schema, which describes successes.
  if (isError) return { content: [{ type: 'text', text: JSON.stringify(value) }], isError: true };
  // The text is the structured content serialised, as MCP asks of tools with an output schema.
  return { content: [{ type: 'text', text: JSON.stringify(structuredContent) }], structuredContent };
}

/** Capability key (under `experimental`) where the server states its weakness flags. */
export const WEAKNESS_CAPABILITY_KEY = 'stockroom.dev/weaknesses';

/** What the server advertises: the flags active on this session, and whether a client may pick them. */
export interface WeaknessCapability {
  active: string[];
  perSession: boolean;
}

/** The `experimental` capabilities object carrying the weakness flags. */
export function weaknessCapability(active: readonly string[], perSession: boolean): Record<string, { [key: string]: unknown }> {
  const value: WeaknessCapability = { active: [...active].sort(), perSession };
  return { [WEAKNESS_CAPABILITY_KEY]: { ...value } };
}

/** Reads the weakness capability from a server's capabilities; undefined when it states none. */
export function readWeaknessCapability(capabilities: { experimental?: Record<string, unknown> } | undefined): WeaknessCapability | undefined {
  const raw = capabilities?.experimental?.[WEAKNESS_CAPABILITY_KEY];
  if (typeof raw !== 'object' || raw === null) return undefined;
  const { active, perSession } = raw as { active?: unknown; perSession?: unknown };
  if (!Array.isArray(active) || !active.every((f): f is string => typeof f === 'string')) return undefined;
  return { active: [...active].sort(), perSession: perSession === true };
}

/** The weakness flags that live in the server (the fourth, injection_unguarded, is the harness's). */
export const SERVER_WEAKNESSES = ['ambiguous_tool_desc', 'naive_retry', 'oversized_payload'] as const;
