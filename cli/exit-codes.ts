/**
 * The process exit status of a command that runs the agent: how the run ended. 0 only for a run
 * that COMPLETED; every other termination has its own code (the table of exit codes in docs/guides/command-line.md), so a
 * script can tell a truncated answer from a timeout without parsing the output. 1 (unexpected error),
 * 2 (bad input) and 130 (cancelled with Ctrl-C) keep their meaning for every command.
 */
import type { TerminationReason } from '../lib/harness/types';

export const EXIT_CODES: Readonly<Record<TerminationReason, number>> = {
  COMPLETED: 0,
  MAX_STEPS: 10,
  TOKEN_BUDGET: 11,
  REPEATED_CALL: 12,
  TIMEOUT: 13,
  MODEL_ERROR: 14,
  TOOL_ERROR: 15,
  INVALID_TOOL_CALLS: 16,
  COST_BUDGET: 17,
  DIVERGED: 18,
  OUTPUT_TRUNCATED: 19,
  MODEL_REFUSED: 20,
  CONTENT_FILTERED: 21,
  GUARDRAIL: 22,
  USAGE_UNKNOWN: 23,
  EMPTY_ANSWER: 24,
};

/**
 * Any command whose database was unavailable (unreachable, its disk full, its file locked): sysexits'
 * EX_TEMPFAIL, "try again later"; nothing was written half-way.
 */
export const EXIT_DB_UNAVAILABLE = 75;

/** The exit status for a run that ended this way (cancelled runs exit 130 whatever they recorded). */
export function exitCodeFor(termination: TerminationReason, cancelled = false): number {
  return cancelled ? 130 : EXIT_CODES[termination];
}
