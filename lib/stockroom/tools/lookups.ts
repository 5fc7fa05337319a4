/**
 * Per-dataset lookups the tools use on every call, computed once and kept with the dataset: SKU
 * and order-id maps and each product's search haystack (SPEC.md §3, §7.2).
 */
import { contentTokens } from '../../harness';
import type { Dataset, Order, Product } from '../dataset/types';

export interface DatasetLookups {
  productsBySku: ReadonlyMap<string, Product>;
  ordersById: ReadonlyMap<string, Order>;
  /** Haystack token sets in catalogue order, for search_products' match score. */
  haystacks: readonly { product: Product; tokens: ReadonlySet<string> }[];
}

/**
 * Content tokens of `sku name category tags…`, the lower-cased SKU, and every token ending in `s`
 * also without that `s` (`gloves` → `glove`, `boxes` → `boxe`).
 */
export function haystackTokens(product: Product): Set<string> {
  const tags = Array.isArray(product.tags) ? product.tags.join(' ') : '';
  const tokens = new Set(contentTokens(`${product.sku} ${product.name} ${product.category} ${tags}`));
  tokens.add(product.sku.toLowerCase());
  for (const token of [...tokens]) if (token.endsWith('s')) tokens.add(token.slice(0, -1));
  return tokens;
}

const cache = new WeakMap<Dataset, DatasetLookups>();

/** The lookups of a dataset (a later duplicate id wins, as in the reference). */
export function lookupsFor(dataset: Dataset): DatasetLookups {
  let lookups = cache.get(dataset);
  if (!lookups) {
    lookups = {
      productsBySku: new Map(dataset.catalogue.map((p) => [p.sku, p])),
      ordersById: new Map(dataset.orders.map((o) => [o.order_id, o])),
      haystacks: dataset.catalogue.map((product) => ({ product, tokens: haystackTokens(product) })),
    };
    cache.set(dataset, lookups);
  }
  return lookups;
}
