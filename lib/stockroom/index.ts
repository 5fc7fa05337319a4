/**
 * The Stockroom environment library (SPEC.md §3, §5–§7): dataset loading, policy retrieval, the
 * five tools and the in-process executor. No Next.js imports. Test helpers live in `./testing/`
 * and are imported directly.
 */
export { loadDataset, defaultDatasetDir, clearDatasetCache } from './dataset/load-dataset';
export {
  CATALOGUE_FILE,
  ORDERS_FILE,
  RESTOCK_RULES_FILE,
  SUPPLIERS_FILE,
  POLICY_DOCS_DIR,
  GOLDEN_DIR,
  MOCK_SCRIPTS_DIR,
  SYSTEM_PROMPT_FILE,
  TOOL_DESCRIPTIONS_FILE,
} from './dataset/load-dataset';
export { TOOL_NAMES, ORDER_SHARDS } from './dataset/types';
export type {
  Dataset,
  Product,
  ProductLocation,
  Order,
  OrderItem,
  OrderShard,
  RestockRules,
  Supplier,
  ToolName,
  ToolDescription,
  ToolDescriptions,
  MockScript,
  MockTurn,
  PolicyDoc,
} from './dataset/types';
export {
  SKU_PATTERN,
  ORDER_ID_PATTERN,
  ProductSchema,
  CatalogueSchema,
  OrderSchema,
  OrdersSchema,
  RestockRulesSchema,
  SupplierSchema,
  SuppliersSchema,
  ToolDescriptionsSchema,
  MockScriptSchema,
  MockTurnSchema,
} from './dataset/schemas';
export { formatFieldPath } from './dataset/issues';

export { chunkDocument, chunkCorpus } from './retrieval/chunk';
export type { Chunk } from './retrieval/chunk';
export { PolicyIndex, policyIndexFor, BM25_K1, BM25_B } from './retrieval/policy-index';
export type { PolicyHit } from './retrieval/policy-index';

export { buildToolSpecs, inputSchemaFor, toConverseToolSpec, SKU_SCHEMA_PATTERN, ORDER_ID_SCHEMA_PATTERN } from './tools/tool-specs';
export { ToolError, BusinessRuleError, TransientToolError, BadArgumentsError } from './tools/errors';
export { RestockLedger, AUTO_APPROVED_NOTE, approvalNote } from './tools/restock-ledger';
export type { RestockRecord, RestockRequest, RestockLedgerEntry, RestockStatus } from './tools/restock-ledger';
export { LegacyShardSimulator } from './tools/legacy-shard';
export { dispatchToolCall, bindArguments, errorResult, successPayloadChars } from './tools/dispatcher';
export { TOOL_DEFINITIONS } from './tools/registry';
export type { ToolDefinition, ToolParameter } from './tools/registry';
export type { ToolContext } from './tools/tool-context';
export { lookupsFor, haystackTokens } from './tools/lookups';
export type { DatasetLookups } from './tools/lookups';
export { rankProducts, matchScore, compactProduct } from './tools/search-products';
export { roundScore } from './tools/search-policy-docs';
export {
  DEFAULT_MAX_RESULTS,
  MAX_RESULTS_LIMIT,
  DEFAULT_TOP_K,
  TOP_K_LIMIT,
  OVERSIZED_CATALOGUE_MIN_HITS,
  LEGACY_FAIL_FIRST,
  NAIVE_RETRY_LEGACY_FAIL_FIRST,
  ORDER_LOOKUP_ATTEMPTS,
  NAIVE_RETRY_ORDER_LOOKUP_ATTEMPTS,
  DEFAULT_PRIORITY,
} from './tools/constants';

export { StockroomEnvironment } from './environment';
export { LocalToolExecutor } from './executor/local-executor';
export {
  createStockroomAgent,
  productVocabulary,
  type AgentRunOptions,
  type CreateAgentOptions,
  type StockroomAgent,
} from './agent';

export { stockroomDownstream } from './review/downstream';
export type { DownstreamDeclaration } from './review/downstream';
export { productContext, proposedSku } from './review/review-context';
export type { ProductContext } from './review/review-context';

// Reached from other libraries.
export type { LiveModelContext } from './agent';
export { DurableLedgerExecutor, LEDGER_WRITE_TOOL } from './ledger/durable-ledger-executor';
export type { LedgerEntry, LedgerStore } from './ledger/ledger-store';
export { ledgerStoreReconciler } from './ledger/reconcilers';
export { ledgerRequestId } from './tools/restock-ledger';
export {
  formatWeaknessLegend,
  loopSwitchesFor,
  modelHabitsFor,
  switchesOf,
  WEAKNESS_ORDER,
  WEAKNESSES,
  weaknessLegend,
  type LoopSwitches,
  type ModelHabits,
  type WeaknessEntry,
  type WeaknessLegendRow,
} from './weaknesses/weakness-table';
