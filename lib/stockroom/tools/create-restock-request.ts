/** create_restock_request (SPEC.md §7.5). */
import type { JsonValue } from '../../harness';
import { lookupKey, pyInt } from './py-args';
import type { ToolContext } from './tool-context';

/** Unknown SKU first, then the integer quantity, then the ledger's rules. */
export function createRestockRequest(
  ctx: ToolContext,
  args: { sku: JsonValue; quantity: JsonValue; priority?: JsonValue },
): JsonValue {
  const product = lookupKey(ctx.lookups.productsBySku, args.sku, 'unknown SKU');
  const quantity = pyInt(args.quantity);
  return ctx.ledger.create({ product, quantity, priority: args.priority }, ctx.operationKey, ctx.approval);
}
