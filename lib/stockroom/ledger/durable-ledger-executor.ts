/**
 * A ToolExecutor decorator that keeps every restock request created under an operation key in a
 * LedgerStore, and answers a key the store already holds from the store without reaching the tool
 * again (so a write is applied once across restarts and processes). Reads and writes without a key
 * pass straight through.
 */
import { ForwardingExecutor, type ToolCallContext, type ToolExecutor, type ToolResult } from '../../harness';
import type { JsonValue } from '../../harness';
import { pyJson } from '../../harness';
import { pyLen } from '../../harness';
import type { RestockRecord } from '../tools/restock-ledger';
import type { LedgerStore } from './ledger-store';
import type { ToolSource } from '../../governance';
import { toolSourceOf } from '../../governance';
import { hasOperationLookup, type OperationLookup } from '../../governance';

/** The only tool that writes to the ledger. */
export const LEDGER_WRITE_TOOL = 'create_restock_request';

/** A downstream that can say whether an operation happened, by its key (local ledger or MCP server). */
function isRecord(v: JsonValue): v is RestockRecord & JsonValue {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && typeof (v as { request_id?: unknown }).request_id === 'string';
}

export class DurableLedgerExecutor extends ForwardingExecutor implements OperationLookup {

  constructor(
    inner: ToolExecutor,
    private readonly store: LedgerStore,
    private readonly runId: string | null,
  ) {
    super(inner);
  }

  /** The inner executor's tool server and hints, for the capability pin (unnamed when it has none). */
  toolSource(): Promise<ToolSource> {
    return toolSourceOf(this.inner);
  }

  override async call(name: string, args: JsonValue, context?: ToolCallContext): Promise<ToolResult> {
    const key = context?.operationKey;
    if (name !== LEDGER_WRITE_TOOL || key === undefined) return this.inner.call(name, args, context);
    const kept = await this.store.find(key);
    if (kept) return this.success(kept);
    const result = await this.inner.call(name, args, context);
    if (result.isError || !isRecord(result.content)) return result;
    const stored = await this.store.put({ operationKey: key, runId: this.runId, record: result.content });
    return stored.request_id === result.content.request_id ? result : this.success(stored);
  }

  /** The store first; else the downstream (whose answer is then kept). */
  async lookupOperation(tool: string, operationKey: string): Promise<JsonValue | null> {
    if (tool !== LEDGER_WRITE_TOOL) return null;
    const kept = await this.store.find(operationKey);
    if (kept) return kept as unknown as JsonValue;
    if (!hasOperationLookup(this.inner)) return null;
    const found = await this.inner.lookupOperation(tool, operationKey);
    if (found === null || !isRecord(found)) return null;
    return (await this.store.put({ operationKey, runId: this.runId, record: found })) as unknown as JsonValue;
  }

  private success(record: RestockRecord): ToolResult {
    const content = record as unknown as JsonValue;
    return { content, isError: false, errorCode: null, payloadChars: pyLen(pyJson(content, { ensureAscii: false })) };
  }
}
