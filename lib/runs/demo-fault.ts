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
import { ForwardingExecutor, type ToolCallContext, type ToolExecutor, type ToolResult } from '../harness';
import { ExecutorError } from '../harness';
import type { JsonValue } from '../harness';
import { armedFault, takeFault } from '../db/core';
import type { JournalStep } from '../governance';
import type { OperationLookup } from '../governance';

/** What the journal entry's error says, so the Effects page shows where the timeout came from. */
export function demoTimeoutMessage(armedBy: string): string {
  return `instructor fault injection (armed by ${armedBy}): the write was applied, then its answer was dropped as if the call timed out`;
}

/** Whether a journal entry's error is the one the "next write times out" fault left (demoTimeoutMessage). */
export function isDemoFaultError(error: string | null): boolean {
  return error?.startsWith('instructor fault injection (armed by ') ?? false;
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

/**
 * Instructor mode's worker-kill drill for one resume on a job worker, when a `worker_kill_<step>`
 * fault is armed for the tenant (null otherwise, so an unarmed run pays one look-up per resume): the
 * worker takes the fault and kills itself with SIGKILL right after that step of the write is stored,
 * as a crash would, leaving the journal where the step left it.
 */
export async function workerKillDrill(tenant: string, take: typeof takeFault = takeFault): Promise<((step: JournalStep) => Promise<void>) | null> {
  const armed = await armedFault(tenant);
  if (!armed?.kind.startsWith('worker_kill_')) return null;
  return async (step) => {
    const fault = await take(tenant, `worker_kill_${step}`);
    if (!fault) return;
    console.error(`stockroom worker: instructor fault injection (armed by ${fault.armedBy}): killed after the write's ${step} step`);
    process.kill(process.pid, 'SIGKILL');
    await new Promise(() => undefined); // nothing after the kill runs
  };
}
