/**
 * The Stockroom environment: one dataset, one set of weakness flags, and the per-run state (restock
 * ledger, legacy-shard counters). Synchronous and in-process; executors wrap it.
 */
import type { WeaknessFlag } from '../harness';
import type { ToolCallContext, ToolResult } from '../harness';
import type { JsonValue } from '../harness';
import type { ToolSpec } from '../harness';
import type { Dataset } from './dataset/types';
import { policyIndexFor } from './retrieval/policy-index';
import { LEGACY_FAIL_FIRST, NAIVE_RETRY_LEGACY_FAIL_FIRST } from './tools/constants';
import { dispatchToolCall } from './tools/dispatcher';
import { LegacyShardSimulator } from './tools/legacy-shard';
import { lookupsFor } from './tools/lookups';
import { RestockLedger } from './tools/restock-ledger';
import type { ToolContext } from './tools/tool-context';
import { buildToolSpecs } from './tools/tool-specs';

export class StockroomEnvironment {
  readonly weaknesses: readonly WeaknessFlag[];
  readonly ledger: RestockLedger;
  private readonly specs: ToolSpec[];
  private readonly context: ToolContext;

  constructor(
    readonly dataset: Dataset,
    weaknesses: readonly WeaknessFlag[],
  ) {
    this.weaknesses = Object.freeze([...weaknesses]);
    const naiveRetry = weaknesses.includes('naive_retry');
    this.ledger = new RestockLedger(dataset.restockRules);
    // Built eagerly so a dataset without the ambiguous description fails here, not mid-run.
    this.specs = Object.freeze(buildToolSpecs(dataset, this.weaknesses)) as ToolSpec[];
    this.context = {
      dataset,
      lookups: lookupsFor(dataset),
      policyIndex: policyIndexFor(dataset),
      ledger: this.ledger,
      legacyShard: new LegacyShardSimulator(naiveRetry ? NAIVE_RETRY_LEGACY_FAIL_FIRST : LEGACY_FAIL_FIRST),
      oversizedPayload: weaknesses.includes('oversized_payload'),
      naiveRetry,
    };
  }

  /** The specs the model is shown, in order; the same (frozen) array on every call. */
  listSpecs(): ToolSpec[] {
    return this.specs;
  }

  /** Runs a tool call (SPEC.md §7.1); tool failures come back as error results, never as throws. */
  call(name: string, args: JsonValue, context?: ToolCallContext): ToolResult {
    const ctx =
      context?.operationKey === undefined && context?.approval === undefined
        ? this.context
        : { ...this.context, ...(context.operationKey !== undefined ? { operationKey: context.operationKey } : {}), ...(context.approval ? { approval: context.approval } : {}) };
    return dispatchToolCall(ctx, name, args);
  }

  /** Legacy-shard lookups of an order in this run (for tests and inspection). */
  legacyAttempts(orderId: string): number {
    return this.context.legacyShard.attempts(orderId);
  }

  /** Clears the per-run state: empties the ledger and the legacy-shard counters. */
  reset(): void {
    this.ledger.reset();
    this.context.legacyShard.reset();
  }
}
