/**
 * Tool-server sessions a worker keeps between the cases of one suite setting. Opening a session to
 * an external MCP server (a stdio child process, an HTTP handshake that confirms the weakness flags)
 * costs far more than a case, and a suite's cases of one setting would each open one: a case
 * borrows an idle session for its key, or opens one, and closing the agent gives it back. Each run
 * still starts with the executor's reset. A session that failed once is closed, never lent again,
 * and an idle one is closed after IDLE_CLOSE_MS.
 */
import { ForwardingExecutor, type ToolCallContext, type ToolExecutor, type ToolResult } from '../harness';
import type { JsonValue } from '../harness';
import type { ToolSpec } from '../harness';

/** How long a returned session waits for the next case before it is closed. */
export const IDLE_CLOSE_MS = 30_000;

interface Idle {
  executor: ToolExecutor;
  timer: ReturnType<typeof setTimeout>;
}

const idle = new Map<string, Idle[]>();

function take(key: string): ToolExecutor | undefined {
  const list = idle.get(key);
  const entry = list?.pop();
  if (list?.length === 0) idle.delete(key);
  if (!entry) return undefined;
  clearTimeout(entry.timer);
  return entry.executor;
}

function giveBack(key: string, executor: ToolExecutor): void {
  const list = idle.get(key) ?? [];
  const entry: Idle = {
    executor,
    timer: setTimeout(() => {
      const now = idle.get(key);
      const at = now?.indexOf(entry) ?? -1;
      if (at >= 0) now!.splice(at, 1);
      if (now?.length === 0) idle.delete(key);
      void executor.close().catch(() => undefined);
    }, IDLE_CLOSE_MS),
  };
  entry.timer.unref?.();
  list.push(entry);
  idle.set(key, list);
}

/** A borrowed session: closing it returns it to the pool, unless one of its calls failed. */
class Lent extends ForwardingExecutor {
  private failed = false;
  private returned = false;

  constructor(
    inner: ToolExecutor,
    private readonly key: string,
  ) {
    super(inner);
  }

  private async watch<T>(work: Promise<T>): Promise<T> {
    try {
      return await work;
    } catch (err) {
      this.failed = true;
      throw err;
    }
  }

  override listSpecs(): Promise<ToolSpec[]> {
    return this.watch(this.inner.listSpecs());
  }

  override call(name: string, args: JsonValue, context?: ToolCallContext): Promise<ToolResult> {
    return this.watch(this.inner.call(name, args, context));
  }

  override reset(): Promise<void> {
    return this.watch(this.inner.reset());
  }

  override async close(): Promise<void> {
    if (this.returned) return;
    this.returned = true;
    if (this.failed) await this.inner.close();
    else giveBack(this.key, this.inner);
  }
}

/**
 * An executor for `key` (the suite, setting and server): an idle session of that key, or a new one
 * from `open`. `session` is the underlying executor (to read what its server confirmed).
 */
export async function borrowExecutor(key: string, open: () => Promise<ToolExecutor>): Promise<{ executor: ToolExecutor; session: ToolExecutor }> {
  const session = take(key) ?? (await open());
  return { executor: new Lent(session, key), session };
}
