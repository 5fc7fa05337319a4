/**
 * The planner's final answer: one sentence per history item, composed from the tool results
 * (SPEC.md §10.8–10.9). Every figure in an answer comes from a tool result.
 */
import { isJsonObject, type JsonObject, type JsonValue } from '../../json';
import { pyJson, type FloatKeys } from '../../pyjson';
import { pyStr, pySlice, pyStrip } from '../../text';
import type { HistoryItem } from './history';

/** Python truthiness of a JSON value. */
export function truthy(v: JsonValue | undefined): boolean {
  if (v === null || v === undefined || v === false || v === 0 || v === '') return false;
  if (Array.isArray(v)) return v.length > 0;
  if (isJsonObject(v)) return Object.keys(v).length > 0;
  return true;
}

const money = (v: JsonValue | undefined): string => (typeof v === 'number' ? v.toFixed(2) : pyStr(v ?? null));
const field = (o: JsonObject, k: string): string => pyStr(o[k] ?? null);

function describeStock(r: JsonObject): string {
  const loc = r.location;
  const where =
    isJsonObject(loc) && Object.keys(loc).length > 0
      ? `aisle ${pyStr(loc.aisle ?? null)}, bin ${pyStr(loc.bin ?? null)}`
      : 'unknown location';
  const level = r.stock_level ?? 0;
  if (level === 0) {
    return `${field(r, 'sku')} (${field(r, 'name')}) is out of stock (0 units); reorder point ${field(r, 'reorder_point')}; location ${where}.`;
  }
  const flag = truthy(r.below_reorder_point) ? ' which is at or below its reorder point' : '';
  return `${field(r, 'sku')} (${field(r, 'name')}) has ${pyStr(level)} units in stock${flag} (reorder point ${field(r, 'reorder_point')}); location ${where}.`;
}

function describeOrder(r: JsonObject): string {
  const items = Array.isArray(r.items) ? r.items : [];
  const rendered = items
    .map((it) => (isJsonObject(it) ? `${field(it, 'quantity')} x ${field(it, 'sku')} ${field(it, 'name')}` : pyStr(it)))
    .join(', ');
  let s = `Order ${field(r, 'order_id')} for ${field(r, 'customer_name')} is ${field(r, 'status')}.`;
  if (truthy(r.tracking_number)) {
    s += ` It shipped with ${field(r, 'carrier')} on ${field(r, 'shipped_at')}, tracking ${field(r, 'tracking_number')}`;
    s += truthy(r.estimated_delivery) ? `; estimated delivery ${field(r, 'estimated_delivery')}.` : '.';
  }
  if (truthy(r.delivered_at)) s += ` It was delivered on ${field(r, 'delivered_at')}.`;
  if (r.status === 'backordered') s += ' At least one line is waiting for stock.';
  if (r.status === 'cancelled') s += ' It is no longer active.';
  return s + ` Items: ${rendered}. Total $${money(r.total_usd)}.`;
}

function describeSearch(items: JsonValue[], args: JsonValue): string {
  if (items.length === 0) {
    const q = isJsonObject(args) && truthy(args.query) ? pyStr(args.query ?? null) : '';
    return `I couldn't find any products matching '${q}'.`;
  }
  const listing = items
    .slice(0, 8)
    .map((it) => {
      const p = isJsonObject(it) ? it : {};
      const stock = p.stock_level === 0 ? 'out of stock' : `${field(p, 'stock_level')} in stock`;
      return `${field(p, 'sku')} ${field(p, 'name')} ($${money(p.unit_price_usd)}, ${stock})`;
    })
    .join('; ');
  const more = items.length > 8 ? ` and ${items.length - 8} more` : '';
  return `I found ${items.length} matching product${items.length === 1 ? '' : 's'}${more}: ${listing}.`;
}

function describeRestock(r: JsonObject): string {
  const note = r.status === 'pending_approval' ? ` (${field(r, 'note')})` : '';
  return `Created restock request ${field(r, 'request_id')} for ${field(r, 'quantity')} units of ${field(r, 'sku')} (${field(r, 'product_name')}) with priority ${field(r, 'priority')}; status ${field(r, 'status')}${note}.`;
}

const HEADING_LINE = /^##\s+\d+\.\s*.*$/gm;
const PREAMBLE_MAX_CHARS = 300;

function describePolicy(items: JsonValue[]): string {
  if (items.length === 0) return "I couldn't find a policy section covering that.";
  const chunks = items.filter((it) => isJsonObject(it)) as JsonObject[];
  const preamble = (c: JsonObject) => c.section === '0' && typeof c.text === 'string' && c.text.length < PREAMBLE_MAX_CHARS;
  const kept = chunks.filter((c) => !preamble(c));
  return (kept.length > 0 ? kept : chunks)
    .slice(0, 2)
    .map((c) => {
      const body = pyStrip(String(c.text ?? '').replace(HEADING_LINE, '')).replace(/\s+/g, ' ');
      return `From ${field(c, 'title')}: ${body}`;
    })
    .join(' ');
}

export function describe(item: HistoryItem, floatKeys?: FloatKeys): string {
  const r = item.result;
  if (item.isError) {
    const msg = isJsonObject(r) ? pyStr(r.message ?? null) : pyStr(r);
    if (item.name === 'create_restock_request') return `I couldn't create the restock request: ${msg}.`;
    return `The ${item.name.replaceAll('_', ' ')} lookup failed: ${msg}.`;
  }
  if (item.name === 'get_stock_level' && isJsonObject(r)) return describeStock(r);
  if (item.name === 'get_order_status' && isJsonObject(r)) return describeOrder(r);
  if (item.name === 'search_products' && Array.isArray(r)) return describeSearch(r, item.arguments);
  if (item.name === 'create_restock_request' && isJsonObject(r)) return describeRestock(r);
  if (item.name === 'search_policy_docs' && Array.isArray(r)) return describePolicy(r);
  return `${item.name} returned: ${pySlice(pyJson(r, { ensureAscii: false, floatKeys }), 300)}`;
}
