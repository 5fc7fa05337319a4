/**
 * What the Stockroom server says about each tool beyond the model-facing spec: a title, MCP
 * annotations (the four lookups are read-only; the restock is a non-idempotent write), and an
 * output schema. The spec the model sees (name, description, input schema) stays the dataset's, so
 * token counts and schema digests do not move when this metadata does.
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ToolName } from '../../stockroom';

export interface ToolMetadata {
  title: string;
  /** True for a tool that changes nothing; every other tool is a write the server gates. */
  readOnly: boolean;
  outputSchema: NonNullable<Tool['outputSchema']>;
}

/** A list result travels wrapped as `{ "result": [...] }` (structured content must be an object). */
const listOutput = (item: string): ToolMetadata['outputSchema'] => ({
  type: 'object',
  properties: { result: { type: 'array', description: `The matching ${item}, best first`, items: { type: 'object' } } },
  required: ['result'],
});

export const TOOL_METADATA: Readonly<Record<ToolName, ToolMetadata>> = {
  search_products: { title: 'Search products', readOnly: true, outputSchema: listOutput('products') },
  get_stock_level: {
    title: 'Get stock level',
    readOnly: true,
    outputSchema: { type: 'object', properties: { sku: { type: 'string' } }, required: ['sku'] },
  },
  get_order_status: {
    title: 'Get order status',
    readOnly: true,
    outputSchema: { type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'] },
  },
  create_restock_request: {
    title: 'Create restock request',
    readOnly: false,
    outputSchema: { type: 'object', properties: { request_id: { type: 'string' } }, required: ['request_id'] },
  },
  search_policy_docs: { title: 'Search policy documents', readOnly: true, outputSchema: listOutput('policy passages') },
};

/** The MCP annotations of a tool: reads are read-only and idempotent; the restock is neither. */
export function annotationsOf(meta: ToolMetadata): NonNullable<Tool['annotations']> {
  return meta.readOnly
    ? { title: meta.title, readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false }
    : { title: meta.title, readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false };
}
