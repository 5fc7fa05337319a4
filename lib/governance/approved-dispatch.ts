/**
 * Hands the downstream the approval a reviewer gave, with the one call it approved: a resumed
 * governed run's approved write carries `approval` in its call context (by operation key), so a
 * downstream that holds large writes for a manager's sign-off (the Stockroom ledger's
 * `pending_approval`) records it as signed off instead of asking for the approval it just got.
 * Every other call passes through unchanged.
 */
import { ForwardingExecutor, type ToolCallContext, type ToolExecutor, type ToolResult } from '../harness';
import type { JsonValue } from '../harness';

export class ApprovedDispatchExecutor extends ForwardingExecutor {

  constructor(
    inner: ToolExecutor,
    /** The operation key of the approved call, and the approval's id. */
    private readonly approved: { operationKey: string; approvalId: string },
  ) {
    super(inner);
  }

  override call(name: string, args: JsonValue, context?: ToolCallContext): Promise<ToolResult> {
    if (context?.operationKey !== this.approved.operationKey) return this.inner.call(name, args, context);
    return this.inner.call(name, args, { ...context, approval: { id: this.approved.approvalId } });
  }
}
