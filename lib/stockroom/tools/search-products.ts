/** search_products (SPEC.md §7.2): keyword match over name, category and tags. */
import type { JsonObject, JsonValue } from '../../harness';
import { compareCodePoints } from '../../harness';
import { contentTokens } from '../../harness';
import type { Product } from '../dataset/types';
import { DEFAULT_MAX_RESULTS, OVERSIZED_CATALOGUE_MIN_HITS } from './constants';
import type { DatasetLookups } from './lookups';
import { pySliceBound, requireString } from './py-args';
import type { ToolContext } from './tool-context';

/**
 * Number of query content tokens found in a product's haystack; duplicates count again, and a
 * query token ending in `s` also matches without it.
 */
export function matchScore(queryTokens: readonly string[], haystack: ReadonlySet<string>): number {
  let score = 0;
  for (const q of queryTokens) {
    if (haystack.has(q) || (q.endsWith('s') && haystack.has(q.slice(0, -1)))) score++;
  }
  return score;
}

/** Products with a positive score, by score descending then SKU. */
export function rankProducts(lookups: DatasetLookups, query: string): Product[] {
  const tokens = contentTokens(query);
  if (tokens.length === 0) return [];
  const scored: { product: Product; score: number }[] = [];
  for (const { product, tokens: haystack } of lookups.haystacks) {
    const score = matchScore(tokens, haystack);
    if (score > 0) scored.push({ product, score });
  }
  scored.sort((a, b) => b.score - a.score || compareCodePoints(a.product.sku, b.product.sku));
  return scored.map((s) => s.product);
}

/** The compact record of the default behaviour. */
export function compactProduct(p: Product): JsonObject {
  return {
    sku: p.sku,
    name: p.name,
    category: p.category,
    unit_price_usd: p.unit_price_usd,
    unit: p.unit,
    stock_level: p.stock_level,
    in_stock: p.stock_level > 0,
  };
}

function pyTruthy(v: JsonValue): boolean {
  if (Array.isArray(v)) return v.length > 0;
  if (v !== null && typeof v === 'object') return Object.keys(v).length > 0;
  return Boolean(v);
}

/**
 * Runs the tool. Under oversized_payload the returned records are the dataset's own frozen
 * objects (and, for the whole catalogue, the dataset's frozen array): copy before changing them.
 */
export function searchProducts(ctx: ToolContext, args: { query: JsonValue; max_results?: JsonValue }): JsonValue {
  const query = requireString('query', args.query);
  const hits = rankProducts(ctx.lookups, query);
  if (ctx.oversizedPayload) {
    // max_results is ignored here, as in the reference (the schema does not even offer it).
    if (hits.length === 0 || hits.length >= OVERSIZED_CATALOGUE_MIN_HITS) return ctx.dataset.catalogue;
    return hits;
  }
  const requested = args.max_results ?? null;
  const limit = pyTruthy(requested) ? pySliceBound('max_results', requested) : DEFAULT_MAX_RESULTS;
  return (limit === null ? hits : hits.slice(0, limit)).map(compactProduct);
}
