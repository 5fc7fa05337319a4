/**
 * Readable refusals for malformed tool calls, before the SDK sees them. The SDK parses a
 * tools/call with its own zod schema first and answers a bad `arguments` (a string, say) with
 * -32603 and a raw zod dump; MCP says invalid params are -32602, and the caller should read what
 * is wrong. This sits on the server side of any transport, so stdio, HTTP and in-memory agree.
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}

/** Why a tools/call's params are unusable, or null when they are fine (or it is not a tools/call). */
export function toolCallParamsProblem(message: JSONRPCMessage): string | null {
  if (!('method' in message) || message.method !== 'tools/call' || !('id' in message)) return null;
  const params = (message as { params?: unknown }).params;
  if (typeof params !== 'object' || params === null || Array.isArray(params)) {
    return `tools/call needs params as an object with a tool name, got ${describe(params)}`;
  }
  const { name, arguments: args } = params as { name?: unknown; arguments?: unknown };
  if (typeof name !== 'string' || name === '') return `tools/call params.name must be a tool name (a non-empty string), got ${describe(name)}`;
  if (args !== undefined && (typeof args !== 'object' || args === null || Array.isArray(args))) {
    return `tools/call params.arguments must be an object of named arguments, got ${describe(args)}`;
  }
  return null;
}

/** Connects `server` to `transport`, answering malformed tool calls with -32602 itself. */
export async function connectGuarded(server: Server, transport: Transport): Promise<void> {
  await server.connect(transport);
  const forward = transport.onmessage;
  transport.onmessage = (message, extra) => {
    const problem = toolCallParamsProblem(message);
    if (problem !== null && 'id' in message) {
      void transport
        .send({ jsonrpc: '2.0', id: message.id, error: { code: ErrorCode.InvalidParams, message: `Invalid params: ${problem}` } }, { relatedRequestId: message.id })
        .catch(() => undefined);
      return;
    }
    forward?.(message, extra);
  };
}
