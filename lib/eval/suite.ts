/**
 * Runs golden cases through an agent, in file order, and scores each run (SPEC.md §1 step 4).
 */
import type { FloatKeys } from '../harness';
import type { RunResult } from '../harness';
import { aggregate, type Aggregate } from './aggregate';
import { evaluateCase, type CaseScores } from './case-scores';
import { EvalError } from './errors';
import type { GoldenCase } from './golden';
import { FakeJudge, type Judge } from './judge';

/** What the suite needs from an agent: one fresh run per case (the Stockroom agent resets itself). */
export interface SuiteAgent {
  run(query: string, caseId?: string | null, options?: { signal?: AbortSignal }): Promise<RunResult>;
  readonly dataset?: { readonly floatKeys?: FloatKeys };
}

/** The most epochs a suite accepts (each is a full pass over the golden set). */
export const MAX_EPOCHS = 100;

export interface SuiteCaseResult {
  golden: GoldenCase;
  /** Which repetition of the case this run is, from 0 (always 0 with one epoch). */
  epoch: number;
  run: RunResult;
  scores: CaseScores;
}

export interface SuiteResult {
  /** Every run, case by case, a case's epochs together in order. */
  results: SuiteCaseResult[];
  /** Runs per case. */
  epochs: number;
  aggregate: Aggregate;
  /** The judge that graded the answers (null: not judged). */
  judge: { name: string; rubricVersion: string } | null;
}

export interface SuiteProgress {
  done: number;
  total: number;
  caseId: string;
}

export interface RunSuiteOptions {
  agent: SuiteAgent;
  cases: readonly GoldenCase[];
  /** Defaults to a FakeJudge with rubric v2, one per suite. */
  judge?: Judge | null;
  onProgress?: (progress: SuiteProgress) => void;
  /** Runs per case, each from a fresh reset (default 1; 1..MAX_EPOCHS). */
  epochs?: number;
  /** Cancels the suite: the run in flight is aborted and no further case starts (throws an AbortError). */
  signal?: AbortSignal;
}

/** Checks an epoch count before anything runs; throws EvalError naming `epochs`. */
export function checkEpochs(epochs: number): number {
  if (!Number.isInteger(epochs) || epochs < 1 || epochs > MAX_EPOCHS) {
    throw new EvalError('epochs_invalid', `epochs must be an integer between 1 and ${MAX_EPOCHS}; got ${epochs}`);
  }
  return epochs;
}

/**
 * Runs every case in order, `epochs` times each (never in parallel: cases share the agent's
 * executor, and the agent resets itself before every run), and scores each run.
 */
export async function runSuite(options: RunSuiteOptions): Promise<SuiteResult> {
  const epochs = checkEpochs(options.epochs ?? 1);
  const judge = options.judge === undefined ? new FakeJudge('v2') : options.judge;
  const floatKeys = options.agent.dataset?.floatKeys;
  const results: SuiteCaseResult[] = [];
  const total = options.cases.length * epochs;
  for (const golden of options.cases) {
    for (let epoch = 0; epoch < epochs; epoch += 1) {
      options.signal?.throwIfAborted();
      const run = await options.agent.run(golden.query, golden.id, options.signal ? { signal: options.signal } : undefined);
      options.signal?.throwIfAborted();
      results.push({ golden, epoch, run, scores: await evaluateCase(golden, run, { judge, floatKeys, signal: options.signal }) });
      options.onProgress?.({ done: results.length, total, caseId: golden.id });
    }
  }
  return { results, epochs, aggregate: aggregate(results.map((r) => r.scores)), judge: judge ? { name: judge.name, rubricVersion: judge.rubricVersion } : null };
}
