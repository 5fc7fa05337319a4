/** get_stock_level (SPEC.md §7.3). */
import type { JsonValue } from '../../harness';
import { lookupKey } from './py-args';
import type { ToolContext } from './tool-context';

/** Stock, reorder point and location of one SKU; `unknown SKU {sku}` otherwise. */
export function getStockLevel(ctx: ToolContext, args: { sku: JsonValue }): JsonValue {
  const p = lookupKey(ctx.lookups.productsBySku, args.sku, 'unknown SKU');
  return {
    sku: args.sku,
    name: p.name,
    stock_level: p.stock_level,
    reorder_point: p.reorder_point,
    below_reorder_point: p.stock_level <= p.reorder_point,
    location: p.location,
    unit: p.unit,
    supplier_name: p.supplier_name,
    lead_time_days: p.lead_time_days,
  };
}
