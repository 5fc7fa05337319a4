/** The in-process tool executor: the environment behind the harness's async executor seam. */
import type { ToolCallContext, ToolExecutor, ToolResult } from '../../harness';
import type { JsonValue } from '../../harness';
import type { ToolSpec } from '../../harness';
import type { StockroomEnvironment } from '../environment';

export class LocalToolExecutor implements ToolExecutor {
  readonly transport = 'local';

  constructor(readonly env: StockroomEnvironment) {}

  async listSpecs(): Promise<ToolSpec[]> {
    return this.env.listSpecs();
  }

  async call(name: string, args: JsonValue, context?: ToolCallContext): Promise<ToolResult> {
    return this.env.call(name, args, context);
  }

  /** Whether this environment's ledger holds a restock created under `operationKey` (reconciliation). */
  async lookupOperation(tool: string, operationKey: string): Promise<JsonValue | null> {
    if (tool !== 'create_restock_request') return null;
    return (this.env.ledger.findByOperationKey(operationKey) as unknown as JsonValue) ?? null;
  }

  async reset(): Promise<void> {
    this.env.reset();
  }

  /** Nothing to release in-process. */
  async close(): Promise<void> {}
}
