/**
 * The Stockroom dataset as the tools, the planner and the evaluators see it (SPEC.md §3). Records
 * are the parsed JSON objects themselves, with every key in file order, frozen after loading.
 */
import type { JsonObject, JsonValue } from '../../harness';

/** Where a product sits in the warehouse. */
export type ProductLocation = { aisle: number; bin: number } & JsonObject;

/**
 * A catalogue product. Keys beyond the named ones (long_description, spec_sheet, variants, …) are
 * kept because the oversized_payload weakness returns whole records.
 */
export type Product = {
  sku: string;
  name: string;
  category: string;
  unit_price_usd: number;
  unit: string;
  stock_level: number;
  reorder_point: number;
  location: ProductLocation;
  supplier_id: string;
  supplier_name: string;
  lead_time_days: number;
  tags?: string[];
} & JsonObject;

/** One line of an order. */
export type OrderItem = { sku: string; name: string; quantity: number; unit_price_usd: number } & JsonObject;

export const ORDER_SHARDS = ['primary', 'legacy'] as const;
/** `legacy` orders go through the flaky legacy shard (SPEC.md §7.4). */
export type OrderShard = (typeof ORDER_SHARDS)[number];

/** A customer order. */
export type Order = {
  order_id: string;
  customer_name: string;
  status: string;
  placed_at: string | null;
  shipped_at: string | null;
  delivered_at: string | null;
  carrier: string | null;
  tracking_number: string | null;
  estimated_delivery: string | null;
  items: OrderItem[];
  total_usd: number;
  shard: OrderShard;
} & JsonObject;

/** The three thresholds the restock ledger applies; other keys are kept but unused. */
export type RestockRules = {
  min_quantity: number;
  auto_approve_max: number;
  reject_above: number;
} & JsonObject;

export type Supplier = { name: string; lead_time_days: number } & JsonObject;

export const TOOL_NAMES = [
  'search_products',
  'get_stock_level',
  'get_order_status',
  'create_restock_request',
  'search_policy_docs',
] as const;
/** The five Stockroom tools, in the order the model is shown them (SPEC.md §6.1). */
export type ToolName = (typeof TOOL_NAMES)[number];

export interface ToolDescription {
  default: string;
  /** The broad description used under `ambiguous_tool_desc` (only search_products has one). */
  ambiguous?: string;
}

export interface ToolDescriptions {
  version?: string;
  tools: Record<ToolName, ToolDescription>;
}

/** One scripted model turn: tool calls, or a final text. */
export type MockTurn = { tool_calls: { name: string; input: JsonValue }[] } | { text: string };

/** Scripted model turns for one golden case (SPEC.md §9.2). */
export interface MockScript {
  case_id: string;
  description: string;
  turns: MockTurn[];
}

/** A policy document of the retrieval corpus. */
export interface PolicyDoc {
  /** File name, e.g. `restock_policy.md`. */
  name: string;
  text: string;
}

/** Everything in one dataset directory, validated. */
export interface Dataset {
  /** Absolute directory. */
  dir: string;
  /** tool_descriptions.json `version`, else the folder name. */
  name: string;
  /** sha256 hex over every dataset file (relative path + bytes, sorted by path). */
  hash: string;
  catalogue: Product[];
  orders: Order[];
  restockRules: RestockRules;
  suppliers: Record<string, Supplier>;
  /** Sorted by file name, README.md excluded. */
  policyDocs: PolicyDoc[];
  /** agent/system_prompt.txt exactly as stored. */
  systemPrompt: string;
  toolDescriptions: ToolDescriptions;
  /** Keyed by file stem (the case id). */
  mockScripts: ReadonlyMap<string, MockScript>;
  /** Absolute paths of golden/*.jsonl, sorted. */
  goldenFiles: string[];
  /** Keys whose numbers are floats in the source JSON, for `pyJson(…, {floatKeys})`. */
  floatKeys: ReadonlySet<string>;
}
