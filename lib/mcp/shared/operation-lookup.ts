/**
 * The read-only, hidden `lookup_operation` tool: asks the Stockroom server whether a write was
 * applied under an operation key, so an outcome lost on the wire (a timeout or a dropped connection
 * after dispatch) is reconciled by asking the downstream instead of being guessed. It answers
 * `{found: false}` or `{found: true, record}` and changes nothing.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CallToolResultSchema, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { isJsonObject, type JsonValue } from '../../harness';
import type { StockroomEnvironment } from '../../stockroom';
import { encodeToolValue, HIDDEN_META_KEY } from './protocol';

export const LOOKUP_TOOL_NAME = 'lookup_operation';

export const LOOKUP_TOOL: Tool = {
  name: LOOKUP_TOOL_NAME,
  description: 'Whether a write was applied under an operation key (reconciliation). Read-only. Not for models.',
  inputSchema: {
    type: 'object',
    properties: { tool: { type: 'string' }, operation_key: { type: 'string' } },
    required: ['tool', 'operation_key'],
    additionalProperties: false,
  },
  _meta: { [HIDDEN_META_KEY]: true },
};

/** The server side: answers from the environment's ledger. */
export function answerLookup(environment: StockroomEnvironment, args: JsonValue): CallToolResult {
  if (!isJsonObject(args) || typeof args.tool !== 'string' || typeof args.operation_key !== 'string') {
    return encodeToolValue({ error: 'bad_arguments', message: 'bad arguments: lookup_operation needs tool and operation_key strings' }, true);
  }
  const record = args.tool === 'create_restock_request' ? environment.ledger.findByOperationKey(args.operation_key) : undefined;
  return encodeToolValue(record ? { found: true, record: record as unknown as JsonValue } : { found: false }, false);
}

/** The client side: the record the server holds for the key, or null; throws when the server cannot answer. */
export async function lookupOverMcp(client: Client, tool: string, operationKey: string, timeoutMs: number): Promise<JsonValue | null> {
  const result = (await client.callTool({ name: LOOKUP_TOOL_NAME, arguments: { tool, operation_key: operationKey } }, CallToolResultSchema, { timeout: timeoutMs })) as CallToolResult;
  const value = result.structuredContent as JsonValue | undefined;
  if (result.isError === true || !isJsonObject(value) || typeof value.found !== 'boolean') {
    throw new Error(`lookup_operation gave no answer for ${operationKey}`);
  }
  return value.found ? ((value.record ?? null) as JsonValue) : null;
}
