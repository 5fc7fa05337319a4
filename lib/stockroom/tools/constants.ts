/** Tool tunables of the reference environment (SPEC.md §7), one place for all of them. */

/** Products returned by search_products when max_results is absent or zero. */
export const DEFAULT_MAX_RESULTS = 5;
/** Upper bound of max_results in the tool schema. */
export const MAX_RESULTS_LIMIT = 20;
/** Policy sections returned by search_policy_docs by default. */
export const DEFAULT_TOP_K = 3;
/** Upper bound of top_k in the tool schema. */
export const TOP_K_LIMIT = 5;
/** Under oversized_payload, this many hits (or none) return the whole catalogue. */
export const OVERSIZED_CATALOGUE_MIN_HITS = 3;
/** Legacy-shard attempts that time out per order and run, normally. */
export const LEGACY_FAIL_FIRST = 1;
/** Under naive_retry the legacy shard is effectively down. */
export const NAIVE_RETRY_LEGACY_FAIL_FIRST = 1_000_000;
/** Lookups get_order_status makes inside one call, normally (so one timeout is hidden). */
export const ORDER_LOOKUP_ATTEMPTS = 2;
/** Under naive_retry get_order_status tries once and surfaces the timeout. */
export const NAIVE_RETRY_ORDER_LOOKUP_ATTEMPTS = 1;
/** Restock priority when none is passed. */
export const DEFAULT_PRIORITY = 'standard';
