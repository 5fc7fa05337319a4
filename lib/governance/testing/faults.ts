/**
 * Crash injection for the effect journal: a store that "dies" right after it persisted a chosen
 * state, and a downstream executor that dies right after the effect happened. The throw stands in
 * for the process ending: whatever was persisted stays, nothing after it runs.
 */
import type { ToolCallContext, ToolExecutor, ToolResult } from '../../harness';
import type { JsonValue } from '../../harness';
import type { EffectStatus, JournalStore } from '../effect-journal';

export class InjectedCrash extends Error {
  constructor(where: string) {
    super(`injected crash ${where}`);
    this.name = 'InjectedCrash';
  }
}

/** Where a crash can be injected along one write. */
export const CRASH_POINTS = ['after_prepared', 'after_dispatched', 'after_downstream', 'after_committed'] as const;
export type CrashPoint = (typeof CRASH_POINTS)[number];

/** Wraps a store so the first write that reaches `status` is persisted and then "crashes". */
export function crashAfterStatus(store: JournalStore, status: EffectStatus): JournalStore {
  let fired = false;
  return {
    get: (k) => store.get(k),
    list: (f) => store.list(f),
    async prepare(entry, at, evidence) {
      const e = await store.prepare(entry, at, evidence);
      if (!fired && status === 'prepared') {
        fired = true;
        throw new InjectedCrash('after prepared');
      }
      return e;
    },
    async transition(k, from, to, patch, at, evidence) {
      const e = await store.transition(k, from, to, patch, at, evidence);
      if (!fired && to === status) {
        fired = true;
        throw new InjectedCrash(`after ${to}`);
      }
      return e;
    },
  };
}

/** Wraps a downstream executor so its first write call takes effect and then "crashes" before answering. */
export function crashAfterDownstream(inner: ToolExecutor, tool: string): ToolExecutor {
  let fired = false;
  return {
    transport: inner.transport,
    listSpecs: () => inner.listSpecs(),
    reset: () => inner.reset(),
    close: () => inner.close(),
    async call(name: string, args: JsonValue, context?: ToolCallContext): Promise<ToolResult> {
      const result = await inner.call(name, args, context);
      if (!fired && name === tool) {
        fired = true;
        throw new InjectedCrash('after the downstream effect');
      }
      return result;
    },
  };
}
