/**
 * Shape checks on a request body before it reaches the SDK transport, so the answer names the
 * JSON-RPC error MCP clients expect: -32600 for a body that is not JSON-RPC at all.
 */
import { JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';

/** Why `body` is not a JSON-RPC message (or a non-empty batch of them), or null when it is. */
export function jsonRpcShapeProblem(body: unknown): string | null {
  const messages = Array.isArray(body) ? body : [body];
  if (messages.length === 0) return 'an empty batch';
  for (const [i, message] of messages.entries()) {
    if (!JSONRPCMessageSchema.safeParse(message).success) {
      const where = Array.isArray(body) ? `batch item ${i}` : 'the body';
      return `${where} is not a JSON-RPC 2.0 message (expected {"jsonrpc":"2.0", "method": …} or a response)`;
    }
  }
  return null;
}
