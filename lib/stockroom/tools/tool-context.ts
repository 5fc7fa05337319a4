/** What a tool implementation is handed: the dataset, its lookups and the run's state. */
import type { Dataset } from '../dataset/types';
import type { PolicyIndex } from '../retrieval/policy-index';
import type { LegacyShardSimulator } from './legacy-shard';
import type { DatasetLookups } from './lookups';
import type { RestockLedger } from './restock-ledger';

export interface ToolContext {
  dataset: Dataset;
  lookups: DatasetLookups;
  policyIndex: PolicyIndex;
  ledger: RestockLedger;
  legacyShard: LegacyShardSimulator;
  /** oversized_payload: search_products returns full records, the whole catalogue for 0 or ≥3 hits. */
  oversizedPayload: boolean;
  /** naive_retry: get_order_status makes one attempt per call. */
  naiveRetry: boolean;
  /** Makes a write idempotent: the same key returns the first result again. */
  operationKey?: string;
  /** A reviewer's approval of this very call (governed runs): the manager's sign-off the ledger asks for. */
  approval?: { id: string };
}
