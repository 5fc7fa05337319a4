/**
 * Server-side zod validation of tool arguments. The JSON schemas the server advertises come from the
 * environment (SPEC.md §6.3, byte for byte); these zod schemas enforce the same constraints on every
 * call, so a client that is not our harness (and skips validation) cannot reach the tools with bad
 * arguments. A test checks that both agree on a set of samples.
 */
import { z } from 'zod';
import type { WeaknessFlag } from '../../harness';
import { ORDER_ID_PATTERN, SKU_PATTERN } from '../../stockroom';
import type { ToolName } from '../../stockroom';

const query = z.string().min(1);
const sku = z.string().regex(SKU_PATTERN);

/** The zod input schema of each Stockroom tool for a set of weakness flags. */
export function toolInputSchemas(weaknesses: readonly WeaknessFlag[]): Record<ToolName, z.ZodType> {
  // oversized_payload removes max_results from the advertised schema, so it must be refused here too.
  const searchProducts = weaknesses.includes('oversized_payload')
    ? z.strictObject({ query })
    : z.strictObject({ query, max_results: z.number().int().min(1).max(20).optional() });
  return {
    search_products: searchProducts,
    get_stock_level: z.strictObject({ sku }),
    get_order_status: z.strictObject({ order_id: z.string().regex(ORDER_ID_PATTERN) }),
    create_restock_request: z.strictObject({
      sku,
      quantity: z.number().int().min(1),
      priority: z.enum(['standard', 'urgent']).optional(),
    }),
    search_policy_docs: z.strictObject({ query, top_k: z.number().int().min(1).max(5).optional() }),
  };
}

/** One line per problem, `path: message`, for a tool error the caller can act on. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(arguments)'}: ${issue.message}`)
    .join('; ');
}
