/**
 * zod schemas for every dataset file. They validate only: the loader keeps the parsed objects
 * themselves (unknown keys and key order intact), because whole records reach the model under the
 * oversized_payload weakness and their serialisation is counted.
 */
import { z } from 'zod';
import { ORDER_SHARDS, TOOL_NAMES } from './types';

/** The tool schemas require these id shapes, so a dataset that breaks them could never be queried. */
export const SKU_PATTERN = /^SKU-\d{4}$/;
export const ORDER_ID_PATTERN = /^ORD-\d{4}$/;

const count = z.number().int().min(0);
const price = z.number().min(0);
const nullableText = z.string().nullable();

export const ProductSchema = z.looseObject({
  sku: z.string().regex(SKU_PATTERN),
  name: z.string().min(1),
  category: z.string(),
  unit_price_usd: price,
  unit: z.string(),
  stock_level: count,
  reorder_point: count,
  location: z.looseObject({ aisle: z.number().int(), bin: z.number().int() }),
  supplier_id: z.string().min(1),
  supplier_name: z.string(),
  lead_time_days: count,
  tags: z.array(z.string()).optional(),
});
export const CatalogueSchema = z.array(ProductSchema);

export const OrderItemSchema = z.looseObject({
  sku: z.string(),
  name: z.string(),
  quantity: count,
  unit_price_usd: price,
});

export const OrderSchema = z.looseObject({
  order_id: z.string().regex(ORDER_ID_PATTERN),
  customer_name: z.string(),
  status: z.string().min(1),
  placed_at: nullableText,
  shipped_at: nullableText,
  delivered_at: nullableText,
  carrier: nullableText,
  tracking_number: nullableText,
  estimated_delivery: nullableText,
  items: z.array(OrderItemSchema),
  total_usd: price,
  shard: z.enum(ORDER_SHARDS),
});
export const OrdersSchema = z.array(OrderSchema);

export const RestockRulesSchema = z
  .looseObject({
    min_quantity: z.number().int().min(1),
    auto_approve_max: z.number().int().min(1),
    reject_above: z.number().int().min(1),
  })
  .refine((r) => r.min_quantity <= r.auto_approve_max && r.auto_approve_max <= r.reject_above, {
    message: 'expected min_quantity <= auto_approve_max <= reject_above',
    path: ['reject_above'],
  });

export const SupplierSchema = z.looseObject({ name: z.string(), lead_time_days: count });
export const SuppliersSchema = z.record(z.string(), SupplierSchema);

const ToolDescriptionSchema = z.strictObject({ default: z.string().min(1), ambiguous: z.string().min(1).optional() });

export const ToolDescriptionsSchema = z.strictObject({
  version: z.string().min(1).optional(),
  // Every tool must be described, and only those five: a typo would silently drop a tool.
  tools: z.strictObject(
    Object.fromEntries(TOOL_NAMES.map((name) => [name, ToolDescriptionSchema])) as Record<
      (typeof TOOL_NAMES)[number],
      typeof ToolDescriptionSchema
    >,
  ),
});

const MockToolCallSchema = z.strictObject({
  name: z.string().min(1),
  input: z.json(),
});

export const MockTurnSchema = z.union([
  z.strictObject({ tool_calls: z.array(MockToolCallSchema).min(1) }),
  z.strictObject({ text: z.string() }),
]);

export const MockScriptSchema = z.strictObject({
  case_id: z.string().min(1),
  description: z.string(),
  turns: z.array(MockTurnSchema).min(1),
});
