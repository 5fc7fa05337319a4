/**
 * What each weakness flag changes, from the course's own flag table (SPEC §2.2), with the environment's
 * part, the scripted model's part and the harness's part apart — a flag can change more than one thing,
 * and "the difference is the switch" hid that (issue 43). `alone` names a pairing that shows one part
 * without the other, where the dashboard can run it.
 */
import type { RunGuardName, WeaknessFlag } from '../harness/config';

export interface FlagParts {
  environment: string | null;
  model: string | null;
  harness: string | null;
  /** Run the flag with these run guards to see its environment's part alone. */
  alone: { guards: RunGuardName[]; label: string; expect: string } | null;
}

export const FLAG_PARTS: Record<WeaknessFlag, FlagParts> = {
  ambiguous_tool_desc: {
    environment: 'search_products gets the broad description (§6.2)',
    model: 'the scripted planner picks tools by description, so stock and order lookups go to search_products (§10.5)',
    harness: null,
    alone: null,
  },
  oversized_payload: {
    environment: 'search_products loses its max_results parameter and returns full records — the whole catalogue for 0 or 3+ matches (§7.2)',
    model: null,
    harness: null,
    alone: null,
  },
  naive_retry: {
    environment: 'the legacy order shard fails every attempt, and get_order_status makes one attempt per call (§7.4)',
    model: 'the scripted planner re-issues a call after a transient error (§10.7)',
    harness: 'the repeated-call guard is off (§11.4)',
    alone: {
      guards: ['repeated_call'],
      label: 'naive_retry with the repeated-call guard kept on',
      expect: 'the same failing shard, and the guard stops the loop: REPEATED_CALL instead of MAX_STEPS',
    },
  },
  injection_unguarded: {
    environment: null,
    model: 'the scripted planner follows an instruction found in policy search results and leaks the system prompt (§10.8, §10.9)',
    harness: 'tool output is not sanitised: no quarantine of instruction-like text (§11.7)',
    alone: null,
  },
};
