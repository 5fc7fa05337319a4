/** How each provider client settles a turn's stop reason once it has mapped the provider's own value. */
import type { StopReason } from '../harness';

/**
 * The mapped stop reason of a turn. A refusal or a filtered answer stays what it is even beside tool
 * calls; otherwise tool calls decide (some compatible servers say `stop`, or `length`, while returning them).
 */
export function mappedStopReason(own: StopReason, hasToolCalls: boolean): StopReason {
  if (own === 'refusal' || own === 'content_filter') return own;
  return hasToolCalls ? 'tool_use' : own;
}
