/**
 * What a reviewer needs to judge a proposed restock, read through the agent's own read-only tool
 * (get_stock_level) on the run's data: the product, its stock and reorder point. The caller hands in
 * the executor built over the request's tenant's dataset; nothing here writes.
 */
import type { ToolExecutor } from '../../harness';
import type { JsonValue } from '../../harness';

export interface ProductContext {
  sku: string;
  name: string | null;
  stockLevel: number | null;
  reorderPoint: number | null;
  unit: string | null;
  location: string | null;
  supplierName: string | null;
  leadTimeDays: number | null;
}

const isObject = (v: JsonValue | undefined): v is Record<string, JsonValue> => v !== null && typeof v === 'object' && !Array.isArray(v);
const num = (v: JsonValue | undefined) => (typeof v === 'number' ? v : null);
const str = (v: JsonValue | undefined) => (typeof v === 'string' ? v : null);
/** A location object (`{aisle, bin}`) as one line: "aisle 3 · bin 4". */
const place = (v: JsonValue | undefined) =>
  isObject(v) ? Object.entries(v).filter(([, x]) => typeof x === 'string' || typeof x === 'number').map(([k, x]) => `${k} ${String(x)}`).join(' · ') : str(v);

/** The SKU a proposed call names, if any. */
export function proposedSku(args: JsonValue): string | null {
  return isObject(args) ? str(args.sku) : null;
}

/** The product behind `sku` as get_stock_level answers it; `{ error }` when the tool refuses (unknown SKU). */
export async function productContext(executor: ToolExecutor, sku: string): Promise<ProductContext | { error: string }> {
  const result = await executor.call('get_stock_level', { sku });
  const c = result.content;
  if (result.isError || !isObject(c)) return { error: isObject(c) ? (str(c.error) ?? 'the tool refused') : String(c) };
  return {
    sku,
    name: str(c.name),
    stockLevel: num(c.stock_level),
    reorderPoint: num(c.reorder_point),
    unit: str(c.unit),
    location: place(c.location),
    supplierName: str(c.supplier_name),
    leadTimeDays: num(c.lead_time_days),
  };
}
