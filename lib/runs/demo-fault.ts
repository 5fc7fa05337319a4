import 'server-only';
/**
 * Instructor mode's "the next write times out" fault, as a ToolExecutor decorator around a governed
 * run's downstream tools. When the tenant has `write_timeout` armed, the next write under an
 * operation key is applied by the tool (and kept in the durable ledger) and then its answer is
 * thrown away as if the call had timed out; the downstream also cannot be asked about it at once.
 * The effect journal therefore leaves the entry `unknown`, and an operator reconciles it from the
 * Effects page, which asks the durable ledger and finds the write. The decorator sits beneath the
 * journal, so the write still went through the policy and the journal like any other.
 */
import { ForwardingExecutor, type ToolCallContext, type ToolExecutor, type ToolResult } from '../harness/executor';
import { ExecutorError } from '../harness/errors';
import type { JsonValue } from '../harness/json';
import { takeFault } from '../db/demo-faults';
import type { OperationLookup } from '../governance/reconcile';

/** What the journal entry's error says, so the Effects page shows where the timeout came from. */
export function demoTimeoutMessage(armedBy: string): string {
  return `instructor fault injection (armed by ${armedBy}): the write was applied, then its answer was dropped as if the call timed out`;
}

export class DemoFaultExecutor extends ForwardingExecutor implements OperationLookup {
  /** Operation keys whose answer this decorator dropped: the downstream "cannot be asked" about them from this run. */
  private readonly dropped = new Set<string>();

  constructor(
    override readonly inner: ToolExecutor & OperationLookup,
    private readonly tenant: string,
    private readonly isWrite: (tool: string) => boolean,
    private readonly take: typeof takeFault = takeFault,
  ) {
    super(inner);
  }

  override async call(name: string, args: JsonValue, context?: ToolCallContext): Promise<ToolResult> {
    const key = context?.operationKey;
    if (key === undefined || !this.isWrite(name)) return this.inner.call(name, args, context);
    const fault = await this.take(this.tenant, 'write_timeout');
    const result = await this.inner.call(name, args, context);
    if (!fault) return result;
    this.dropped.add(key);
    throw new ExecutorError(this.transport, demoTimeoutMessage(fault.armedBy));
  }

  async lookupOperation(tool: string, operationKey: string): Promise<JsonValue | null> {
    if (this.dropped.has(operationKey)) {
      throw new ExecutorError(this.transport, `the downstream cannot be asked about ${operationKey} from this run (instructor fault injection); reconcile it from the Effects page`);
    }
    return this.inner.lookupOperation(tool, operationKey);
  }
}
