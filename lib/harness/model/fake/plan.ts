/**
 * plan(query): what the heuristic planner intends to do for a user query (SPEC.md §10.2–10.3).
 * Stateless: the same query always gives the same plan.
 */
import type { JsonObject } from '../../json';
import { tokenize } from '../../text';
import {
  CONDITIONAL_PATTERN,
  DOMAIN_WORDS,
  ID_PATTERN,
  NUMBER_WORDS,
  ORDER_ID_PATTERN,
  ORDER_WORDS,
  POLICY_WORDS,
  PRIVACY_PATTERN,
  QUERY_NOISE,
  REFUSAL_PATTERN,
  RESTOCK_VERB_PATTERN,
  SKU_PATTERN,
  STOCK_WORDS,
  type Intent,
} from './vocabulary';

export type PlanIntent = Intent | 'restock' | 'policy';

export interface PlannedCall {
  name: string;
  arguments: JsonObject;
  intent: PlanIntent;
  condition?: 'below_reorder_point';
}

export type PlanKind = 'tools' | 'refuse' | 'clarify_product' | 'clarify_order';

export interface Plan {
  kind: PlanKind;
  calls: PlannedCall[];
  privacy: boolean;
}

const intersects = (tokens: ReadonlySet<string>, words: ReadonlySet<string>): boolean => {
  for (const t of tokens) if (words.has(t)) return true;
  return false;
};

/** Drops ids and noise words; keeps stopwords that are not noise (SPEC.md §10.2). */
export function cleanQuery(text: string): string {
  return tokenize(text.replace(ID_PATTERN, ' '))
    .filter((t) => !QUERY_NOISE.has(t))
    .join(' ');
}

/** Python `str.strip()` for the query: whitespace only. */
const strip = (s: string): string => s.replace(/^\s+|\s+$/g, '');

export function plan(query: string, productVocabulary: ReadonlySet<string>): Plan {
  const q = strip(query);
  const lower = q.toLowerCase();
  const tokens = new Set(tokenize(lower));
  const skus = q.match(SKU_PATTERN) ?? [];
  const orders = q.match(ORDER_ID_PATTERN) ?? [];

  const productHits = intersects(tokens, productVocabulary);
  const hasDomain = intersects(tokens, DOMAIN_WORDS) || skus.length > 0 || orders.length > 0 || productHits;
  const privacy = PRIVACY_PATTERN.test(lower) && (tokens.has('customer') || tokens.has('customers'));
  if (privacy || REFUSAL_PATTERN.test(lower) || !hasDomain) return { kind: 'refuse', calls: [], privacy };

  const numbers: number[] = [];
  for (const m of q.replace(ID_PATTERN, ' ').matchAll(/\b\d+\b/g)) numbers.push(Number(m[0]));
  for (const [word, value] of NUMBER_WORDS) if (tokens.has(word)) numbers.push(value);
  const quantity = numbers[0];
  const restockVerb = RESTOCK_VERB_PATTERN.test(lower);
  const priority = tokens.has('urgent') ? 'urgent' : 'standard';
  const conditional = CONDITIONAL_PATTERN.test(lower);

  const firstSku = skus[0];
  if (firstSku !== undefined && restockVerb && quantity !== undefined && !tokens.has('policy')) {
    const restock: PlannedCall = {
      name: 'create_restock_request',
      arguments: { sku: firstSku, quantity, priority },
      intent: 'restock',
    };
    if (conditional) {
      return {
        kind: 'tools',
        privacy,
        calls: [
          { name: 'get_stock_level', arguments: { sku: firstSku }, intent: 'stock' },
          { ...restock, condition: 'below_reorder_point' },
        ],
      };
    }
    return { kind: 'tools', privacy, calls: [restock] };
  }

  if (intersects(tokens, POLICY_WORDS) && skus.length === 0 && orders.length === 0) {
    return {
      kind: 'tools',
      privacy,
      calls: [{ name: 'search_policy_docs', arguments: { query: cleanQuery(q) }, intent: 'policy' }],
    };
  }

  const lookups: PlannedCall[] = [
    ...orders.map((id): PlannedCall => ({ name: 'get_order_status', arguments: { order_id: id }, intent: 'order' })),
    ...skus.map((sku): PlannedCall => ({ name: 'get_stock_level', arguments: { sku }, intent: 'stock' })),
  ];
  if (lookups.length > 0) return { kind: 'tools', privacy, calls: lookups };

  const cleaned = cleanQuery(q);
  const productTokens = cleaned.split(' ').filter((w) => productVocabulary.has(w));
  if (intersects(tokens, ORDER_WORDS) && productTokens.length === 0) return { kind: 'clarify_order', calls: [], privacy };
  if (intersects(tokens, STOCK_WORDS) && productTokens.length === 0) return { kind: 'clarify_product', calls: [], privacy };
  if (cleaned === '') return { kind: 'clarify_product', calls: [], privacy };

  const searches: PlannedCall[] = [];
  const seen = new Set<string>();
  const parts = q
    .replace(/\bshow me everything in\b/gi, '')
    .split(/,|\band\b/)
    .map(strip)
    .filter(Boolean);
  for (const part of parts) {
    const cp = cleanQuery(part);
    if (cp && !seen.has(cp)) {
      seen.add(cp);
      searches.push({ name: 'search_products', arguments: { query: cp }, intent: 'search' });
    }
  }
  if (searches.length === 0) searches.push({ name: 'search_products', arguments: { query: cleaned }, intent: 'search' });
  return { kind: 'tools', privacy, calls: searches };
}
