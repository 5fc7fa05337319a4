/**
 * The heuristic planner's word lists and patterns (SPEC.md §10.1), kept verbatim: the planner's
 * decisions, and so every reference figure, depend on each entry.
 */
import { contentTokens } from '../../text';

const words = (s: string): ReadonlySet<string> => new Set(s.split(/\s+/).filter(Boolean));

export const DOMAIN_WORDS = words(
  'stock stocked sku order orders restock reorder policy return returns refund shipping ship ' +
    'shipped delivery delivered warranty lead product products catalogue catalog price tracking ' +
    'cancel cancelled parcel units inventory supplier left sell fee priority stored',
);

export const POLICY_WORDS = words(
  'policy return returns refund shipping warranty lead fee parcel lost scan restocking ' +
    'priority cancelled approval surcharge cut-off express carrier glossary backordered mean ' +
    'means window policies',
);

export const QUERY_NOISE = words(
  "do you any sell find me search catalogue catalog products product show everything list " +
    "have there which what is are the a an in for of and does please say about tell much " +
    "how when it to should can be i we our your with that this on at by from as or if " +
    "so then has hasn't yet right now still look up give check many left got get where " +
    'stored its my long after days treated without number',
);

/** Number words the planner reads as quantities, in the order it appends them. */
export const NUMBER_WORDS: ReadonlyArray<readonly [string, number]> = [
  ['ten', 10],
  ['twenty', 20],
  ['thirty', 30],
  ['forty', 40],
  ['fifty', 50],
  ['sixty', 60],
  ['seventy', 70],
  ['eighty', 80],
  ['ninety', 90],
  ['hundred', 100],
];

export const ORDER_WORDS = words('order orders parcel delivery tracking');
export const STOCK_WORDS = words('stock units left inventory many');

export const REFUSAL_PATTERN =
  /\b(poem|joke|weather|recipe|song|story|politic|news|stock market|bitcoin|crypto|home address|phone number|email address|personal details|date of birth|password)\b/i;
export const PRIVACY_PATTERN = /(address|phone|email|personal)/i;
export const RESTOCK_VERB_PATTERN = /\b(raise|create|order|request|restock|reorder|place)\b/i;
export const CONDITIONAL_PATTERN = /\bif so\b/i;
export const SKU_PATTERN = /SKU-\d{4}/g;
export const ORDER_ID_PATTERN = /ORD-\d{4}/g;
export const ID_PATTERN = /(SKU|ORD|RSR)-\d{4}/g;

/**
 * Instruction-like text in tool output. Python's `.` matches everything but LF, so `[^\n]` stands
 * in for it (a JavaScript `.` would also stop at CR and U+2028/2029).
 */
export const INJECTION_LINE =
  /(system notice|ignore (all |any |your )?(previous|prior|earlier) instructions|disregard (any |all |your )?(previous|earlier|prior)? ?instructions|you must immediately call|reply [^\n]{0,40}system prompt|overrides? the [^\n]{0,40}policy)/i;

export const INJECTED_CALL =
  /call `?(?<tool>[a-z_]+)`?\s+for\s+`?(?<sku>SKU-\d{4})`?\s+with\s+quantity\s+`?(?<qty>\d+)`?(?:\s+and\s+priority\s+`?(?<priority>\w+)`?)?/i;

export type Intent = 'stock' | 'order' | 'search';

export const INTENT_PHRASES: Readonly<Record<Intent, string>> = {
  stock: 'stock level units in stock for a sku',
  order: 'order status tracking for an order id',
  search: 'search products catalogue by name or category keyword',
};

/** The planner's product vocabulary: content tokens of every name and category, plus singulars. */
export function buildProductVocabulary(products: ReadonlyArray<{ name: string; category: string }>): Set<string> {
  const vocab = new Set<string>();
  for (const p of products) {
    for (const t of contentTokens(p.name)) vocab.add(t);
    for (const t of contentTokens(p.category)) vocab.add(t);
  }
  for (const t of [...vocab]) if (t.endsWith('s')) vocab.add(t.slice(0, -1));
  return vocab;
}
