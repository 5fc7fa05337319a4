import 'server-only';
/**
 * The skeleton of a run for replay: every transition, each model call's token usage and every
 * guard or compaction event, gathered page by page (getRunSteps caps a page), without tool results
 * or messages, which the replay fetches for the step on screen.
 */
import { getRunSteps } from '@/lib/db/runs-read';
import type { TimelineCall, TimelineTransition } from '@/lib/charts/replay-timeline';

/** A guard or compaction event as the replay's event list shows it. */
export type TimelineEvent =
  | { kind: 'guard'; index: number; step: number; guard: string; reason: string; detail: string }
  | { kind: 'compaction'; index: number; step: number; tokensBefore: number; tokensAfter: number; resultsSummarised: number };

export interface Timeline {
  transitions: TimelineTransition[];
  calls: TimelineCall[];
  events: TimelineEvent[];
  /** Tool calls per step (for the log's labels). */
  toolCallsPerStep: Record<number, number>;
}

/** Entries per page requested (the data layer's page cap). */
const PAGE = 500;

export async function loadTimeline(runId: string, trajectoryLength: number): Promise<Timeline> {
  const transitions = new Map<number, TimelineTransition>();
  const calls: TimelineCall[] = [];
  const events: TimelineEvent[] = [];
  const toolCallsPerStep: Record<number, number> = {};
  let from = 0;
  // Transitions come with each page's steps; a run with no trajectory still has its transitions at step 0.
  const end = Math.max(trajectoryLength, 1);
  while (from < end) {
    const page = await getRunSteps(runId, { fromIndex: from, toIndex: Math.max(from + PAGE, from + 1) });
    for (const t of page.transitions) transitions.set(t.index, t);
    for (const item of page.items) {
      if (item.kind === 'model_turn') calls.push({ step: item.step, inputTokens: item.inputTokens, outputTokens: item.outputTokens });
      else if (item.kind === 'tool_call') toolCallsPerStep[item.step] = (toolCallsPerStep[item.step] ?? 0) + 1;
      else if (item.kind === 'guard')
        events.push({ kind: 'guard', index: item.index, step: item.step, guard: item.guard, reason: item.reason, detail: item.detail });
      else if (item.kind === 'compaction')
        events.push({
          kind: 'compaction',
          index: item.index,
          step: item.step,
          tokensBefore: item.tokensBefore,
          tokensAfter: item.tokensAfter,
          resultsSummarised: item.resultsSummarised,
        });
    }
    const last = page.items[page.items.length - 1];
    const next = page.nextIndex ?? (last ? last.index + 1 : end);
    if (next <= from) break;
    from = next;
  }
  return { transitions: [...transitions.values()].sort((a, b) => a.index - b.index), calls, events, toolCallsPerStep };
}
