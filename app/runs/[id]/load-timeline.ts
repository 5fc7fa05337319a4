import 'server-only';
/**
 * The skeleton of a run for replay: every transition, each model call's token usage and every
 * guard or compaction event, without tool results or messages, which the replay fetches for the
 * step on screen. A long run's page carries only its head (REPLAY_HEAD_TRANSITIONS); the replay
 * fetches the whole from /api/runs/[id]/timeline as soon as it is on screen.
 */
import { getRunTimeline, getRunTimelineHead, type TimelineDto, type TimelineHead } from '@/lib/db/runs/run-timeline';

/** A guard or compaction event as the replay's event list shows it. */
export type TimelineEvent = TimelineDto['events'][number];

export type Timeline = TimelineDto;

/**
 * Transitions the replay page sends with its HTML. A 20,000-step run has 40,000 transitions and model
 * calls: read, serialised and sent twice (RSC payload and HTML) they were most of its page's time.
 */
export const REPLAY_HEAD_TRANSITIONS = 1_000;

export async function loadTimeline(runId: string): Promise<Timeline> {
  return getRunTimeline(runId);
}

export async function loadTimelineHead(runId: string): Promise<TimelineHead> {
  return getRunTimelineHead(runId, REPLAY_HEAD_TRANSITIONS);
}
