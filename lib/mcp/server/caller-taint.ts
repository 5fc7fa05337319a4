/**
 * Taint for outside agents over /api/mcp (issue 34): the first tool result a caller reads that
 * carries prompt-injection signals (what the harness's quarantine detector would remove) marks the
 * caller tainted, and from then on every write of theirs waits for a reviewer (the write gate
 * tightens the policy's decision, rule `tainted-run`). Kept per caller, for as long as this process
 * keeps the caller's environment: the endpoint is stateless, so this memory stands in for a run.
 */
import { quarantine, type ToolResult } from '../../harness';

/** Where a caller was tainted: their Nth tool call, the tool, the detector, and an excerpt of the planted text. */
export interface CallerTaintMark {
  step: number;
  tool: string;
  detector: 'quarantine';
  excerpt: string;
}

/** One caller's view: what their write gate reads and what their server reports each call to. */
export interface CallerTaint {
  current(): CallerTaintMark | null;
  /** Counts the call and, for a read's result with planted instructions, marks the caller (once). */
  observe(tool: string, result: ToolResult, write: boolean): void;
}

/** Longest excerpt of planted text kept (as the harness's taint). */
const EXCERPT_CHARS = 200;

/** Every caller's taint, the least recently seen dropped beyond `max` (like their environments). */
export class CallerTaints {
  private readonly callers = new Map<string, { calls: number; mark: CallerTaintMark | null }>();

  constructor(private readonly max: number) {}

  private entry(key: string) {
    let e = this.callers.get(key);
    if (e) this.callers.delete(key);
    else {
      e = { calls: 0, mark: null };
      if (this.callers.size >= this.max) {
        const first = this.callers.keys().next();
        if (!first.done) this.callers.delete(first.value);
      }
    }
    this.callers.set(key, e);
    return e;
  }

  view(key: string): CallerTaint {
    return {
      current: () => this.callers.get(key)?.mark ?? null,
      observe: (tool, result, write) => {
        const e = this.entry(key);
        e.calls += 1;
        if (e.mark || write || result.isError) return;
        const planted = quarantine(result.content).removed[0];
        if (planted !== undefined) e.mark = { step: e.calls, tool, detector: 'quarantine', excerpt: planted.slice(0, EXCERPT_CHARS) };
      },
    };
  }
}
