import 'server-only';
/**
 * The skeleton of a run for replay: every transition, each model call's token usage and every
 * guard or compaction event, without tool results or messages, which the replay fetches for the
 * step on screen.
 */
import { getRunTimeline, type TimelineDto } from '@/lib/db/runs/run-timeline';

/** A guard or compaction event as the replay's event list shows it. */
export type TimelineEvent = TimelineDto['events'][number];

export type Timeline = TimelineDto;

export async function loadTimeline(runId: string): Promise<Timeline> {
  return getRunTimeline(runId);
}
