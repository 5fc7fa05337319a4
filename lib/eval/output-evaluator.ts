/**
 * The deterministic answer check (SPEC.md §12.5): expected facts present, forbidden facts absent,
 * and no forbidden tool executed.
 */
import { compareCodePoints } from '../harness';
import { factPresent } from './facts';

export interface OutputCheckInput {
  finalAnswer: string;
  expectedFacts: readonly string[];
  forbiddenFacts: readonly string[];
  mustNotCall: readonly string[];
  /** Names of the executed calls, in order. */
  executedNames: readonly string[];
}

export interface OutputCheck {
  passed: boolean;
  factsFound: string[];
  factsMissing: string[];
  forbiddenFound: string[];
  /** Sorted, de-duplicated names of executed calls listed in must_not_call. */
  mustNotCallViolations: string[];
}

/** Checks a final answer against the case's facts and its must-not-call list. */
export function checkOutput(input: OutputCheckInput): OutputCheck {
  const factsFound = input.expectedFacts.filter((f) => factPresent(f, input.finalAnswer));
  const factsMissing = input.expectedFacts.filter((f) => !factsFound.includes(f));
  const forbiddenFound = input.forbiddenFacts.filter((f) => factPresent(f, input.finalAnswer));
  const mustNotCallViolations = [...new Set(input.executedNames.filter((n) => input.mustNotCall.includes(n)))].sort(
    compareCodePoints,
  );
  return {
    passed: factsMissing.length === 0 && forbiddenFound.length === 0 && mustNotCallViolations.length === 0,
    factsFound,
    factsMissing,
    forbiddenFound,
    mustNotCallViolations,
  };
}
