/**
 * The mock-mode judge (SPEC.md §12.6): grades an answer by the share of key facts it contains,
 * with rubric v1 (lenient) or v2 (every fact, nothing forbidden), and delegates the faithfulness
 * rubric to the claim check. A live judge grades the same items through a model (lib/models/model-judge.ts).
 */
import { pyRepr } from '../harness';
import { EvalError } from './errors';
import { extractKeyFacts, factPresent } from './facts';
import { gradeFaithfulness } from './faithfulness';
import { round4 } from './numbers';

export const RUBRIC_VERSIONS = ['v1', 'v2'] as const;
export type RubricVersion = (typeof RUBRIC_VERSIONS)[number];

/** What the judge is asked to grade. */
export interface JudgeItem {
  query: string;
  answer: string;
  reference: string | null;
  context: string;
  expectedFacts: readonly string[];
  forbiddenFacts: readonly string[];
  /** `answer_correctness` or `faithfulness`. */
  rubric: string;
}

export interface JudgeVerdict {
  score: number;
  passed: boolean;
  rationale: string;
}

/**
 * Why a judge gave no verdict: its output could not be read as one (`malformed_output`), or the
 * provider call failed after its retries (`model_error`). Such an item counts as unscored.
 */
export const JUDGE_UNSCORED_REASONS = ['malformed_output', 'model_error'] as const;
export type JudgeUnscoredReason = (typeof JUDGE_UNSCORED_REASONS)[number];

export interface JudgeUnscored {
  unscored: JudgeUnscoredReason;
  detail: string;
}

/**
 * What one item cost a live judge in this process: the provider calls it made (a failed one included,
 * with no tokens), their tokens, and USD (null when the judge model has no price). Absent when the
 * verdict came from the recorded calls (the cache) or from the fake judge: nothing was billed.
 */
export interface JudgeSpend {
  calls: number;
  failedCalls: number;
  /** Reported tokens only: calls that reported none are counted in `unreportedCalls` (unknown, never 0). */
  inputTokens: number;
  outputTokens: number;
  /** Null: unknown (no price, or a call reported no usage). */
  usd: number | null;
  unreportedCalls?: number;
}

export type JudgeOutcome = (JudgeVerdict | JudgeUnscored) & { spend?: JudgeSpend };

export function isScored(outcome: JudgeOutcome): outcome is JudgeVerdict {
  return !('unscored' in outcome);
}

export interface GradeOptions {
  signal?: AbortSignal;
}

/** A grader of answers: the fake one is deterministic, a live one asks a model (lib/models/model-judge.ts). */
export interface Judge {
  /** `fake-judge`, or the provider:model of a live judge. */
  readonly name: string;
  readonly rubricVersion: RubricVersion;
  grade(item: JudgeItem, options?: GradeOptions): Promise<JudgeOutcome>;
}

/** The deterministic judge used in mock mode. */
export class FakeJudge implements Judge {
  readonly name = 'fake-judge';
  readonly rubricVersion: RubricVersion;

  constructor(rubricVersion: string = 'v2') {
    if (!(RUBRIC_VERSIONS as readonly string[]).includes(rubricVersion)) {
      throw new EvalError('judge_rubric_unsupported', 'FakeJudge supports rubric versions v1 and v2');
    }
    this.rubricVersion = rubricVersion as RubricVersion;
  }

  async grade(item: JudgeItem): Promise<JudgeVerdict> {
    return this.verdict(item);
  }

  /** The same verdict, synchronously. */
  verdict(item: JudgeItem): JudgeVerdict {
    if (item.rubric === 'faithfulness') {
      const f = gradeFaithfulness(item.answer, item.context);
      return { score: f.score, passed: f.passed, rationale: `faithfulness: ${f.supported}/${f.claims} claims supported by tool output` };
    }
    const facts = item.expectedFacts.length > 0 ? [...item.expectedFacts] : extractKeyFacts(item.reference ?? '');
    const found = facts.filter((f) => factPresent(f, item.answer));
    const missing = facts.filter((f) => !found.includes(f));
    const forbidden = item.forbiddenFacts.filter((f) => factPresent(f, item.answer));
    const fraction = facts.length > 0 ? found.length / facts.length : 1;
    const counted = `${found.length}/${facts.length} key facts present`;
    if (this.rubricVersion === 'v1') {
      return { score: round4(fraction), passed: fraction >= 0.5, rationale: `v1: ${counted}` };
    }
    let rationale = `v2: ${counted}`;
    if (missing.length > 0) rationale += `; missing ${pyRepr(missing)}`;
    if (forbidden.length > 0) rationale += `; contradiction/forbidden content ${pyRepr(forbidden)}`;
    return {
      score: round4(Math.max(0, forbidden.length > 0 ? fraction - 0.5 : fraction)),
      passed: missing.length === 0 && forbidden.length === 0,
      rationale,
    };
  }
}
