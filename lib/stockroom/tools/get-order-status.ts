/** get_order_status (SPEC.md §7.4), with the retry that hides one legacy-shard timeout. */
import type { JsonValue } from '../../harness';
import type { Order } from '../dataset/types';
import { NAIVE_RETRY_ORDER_LOOKUP_ATTEMPTS, ORDER_LOOKUP_ATTEMPTS } from './constants';
import { TransientToolError } from './errors';
import { lookupKey } from './py-args';
import type { ToolContext } from './tool-context';

function fetchOrder(ctx: ToolContext, orderId: JsonValue): Order {
  const order = lookupKey(ctx.lookups.ordersById, orderId, 'unknown order');
  if (order.shard === 'legacy') ctx.legacyShard.attempt(order.order_id);
  return order;
}

/** The order without unit prices or shard; a timeout on the last attempt reaches the model. */
export function getOrderStatus(ctx: ToolContext, args: { order_id: JsonValue }): JsonValue {
  const attempts = ctx.naiveRetry ? NAIVE_RETRY_ORDER_LOOKUP_ATTEMPTS : ORDER_LOOKUP_ATTEMPTS;
  let order: Order | undefined;
  for (let attempt = 1; order === undefined; attempt++) {
    try {
      order = fetchOrder(ctx, args.order_id);
    } catch (err) {
      if (!(err instanceof TransientToolError) || attempt >= attempts) throw err;
    }
  }
  return {
    order_id: order.order_id,
    customer_name: order.customer_name,
    status: order.status,
    placed_at: order.placed_at,
    shipped_at: order.shipped_at,
    delivered_at: order.delivered_at,
    carrier: order.carrier,
    tracking_number: order.tracking_number,
    estimated_delivery: order.estimated_delivery,
    items: order.items.map((item) => ({ sku: item.sku, name: item.name, quantity: item.quantity })),
    total_usd: order.total_usd,
  };
}
