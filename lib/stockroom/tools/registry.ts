/**
 * The five tools with their Python signatures: parameter names in order and which ones are
 * required. The dispatcher binds keyword arguments against these before running a tool.
 */
import type { JsonValue } from '../../harness';
import type { ToolName } from '../dataset/types';
import { createRestockRequest } from './create-restock-request';
import { getOrderStatus } from './get-order-status';
import { getStockLevel } from './get-stock-level';
import { searchPolicyDocs } from './search-policy-docs';
import { searchProducts } from './search-products';
import type { ToolContext } from './tool-context';

export interface ToolParameter {
  name: string;
  required: boolean;
}

export interface ToolDefinition {
  name: ToolName;
  params: readonly ToolParameter[];
  /** Runs with bound arguments; throws a ToolError subclass for a failure the model should see. */
  run(ctx: ToolContext, args: Record<string, JsonValue>): JsonValue;
}

const req = (name: string): ToolParameter => ({ name, required: true });
const opt = (name: string): ToolParameter => ({ name, required: false });

type Bound = Record<string, JsonValue>;

/** The tools by name, in spec order. */
export const TOOL_DEFINITIONS: ReadonlyMap<string, ToolDefinition> = new Map<string, ToolDefinition>(
  (
    [
      { name: 'search_products', params: [req('query'), opt('max_results')], run: (c, a: Bound) => searchProducts(c, a as never) },
      { name: 'get_stock_level', params: [req('sku')], run: (c, a: Bound) => getStockLevel(c, a as never) },
      { name: 'get_order_status', params: [req('order_id')], run: (c, a: Bound) => getOrderStatus(c, a as never) },
      {
        name: 'create_restock_request',
        params: [req('sku'), req('quantity'), opt('priority')],
        run: (c, a: Bound) => createRestockRequest(c, a as never),
      },
      { name: 'search_policy_docs', params: [req('query'), opt('top_k')], run: (c, a: Bound) => searchPolicyDocs(c, a as never) },
    ] satisfies ToolDefinition[]
  ).map((t) => [t.name, t]),
);
